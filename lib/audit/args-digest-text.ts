/**
 * What a reviewer is shown of a waiting call, as the text its digest is taken of: the arguments of a
 * call that waits for approval, the suspend payload of one that waits for input, as JSON with every
 * object's keys sorted. Browser-safe: the decision forms take the digest of what they display
 * (components/run-detail/use-args-digest.ts) and the server of what the run waits on (args-digest.ts).
 */
export function shownValue(call: { requiresApproval: boolean; args?: unknown; suspendPayload?: unknown }): unknown {
  return call.requiresApproval ? (call.args ?? {}) : (call.suspendPayload ?? null);
}

export function argsDigestText(value: unknown): string {
  return JSON.stringify(sorted(value)) ?? "null";
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  // toJSON first (a Date is shown as its text), as JSON.stringify would.
  const json = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof json === "function") return sorted(json.call(value));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sorted((value as Record<string, unknown>)[key]);
  return out;
}

/** A digest as requests carry it: 64 lowercase hex digits (SHA-256). */
export const ARGS_DIGEST_PATTERN = /^[0-9a-f]{64}$/;
