/**
 * What "Approve and trust" offers for one call (lib/rules/trust.ts): how long the trust lasts, and
 * the call's own scalar arguments a reviewer may tick as conditions (the trusted rule then requires
 * each ticked argument to equal this call's value). Browser-safe and pure: the form lists the same
 * fields the server accepts.
 */
import { KEY_PATTERN, MAX_PATH_CHARS } from "./path.ts";
import { MAX_CONDITIONS } from "./validations.ts";

/** 15 minutes, an hour, or until midnight in the reviewer's time zone. */
export const TRUST_DURATIONS = ["15m", "1h", "today"] as const;
export type TrustDuration = (typeof TRUST_DURATIONS)[number];

/** How many argument fields are offered (a rule takes that many conditions), and how deep into the arguments they are looked for. */
export const MAX_TRUST_FIELDS = MAX_CONDITIONS;
const MAX_DEPTH = 6;
/** An `equals` condition compares with strings of at most this many characters (lib/rules/validations.ts). */
const MAX_VALUE_CHARS = 1000;

export type TrustScalar = string | number | boolean | null;

/** One scalar in the call's arguments: its path (as a rule condition writes it) and its value. */
export interface TrustField {
  path: string;
  value: TrustScalar;
}

/**
 * The scalar values in `args`, top-level and nested (objects and arrays), in the order they appear,
 * at most MAX_TRUST_FIELDS: those a condition can name (a key a path can spell) and compare (a
 * finite number, a string of at most 1,000 characters, a boolean, null).
 */
export function trustableFields(args: unknown): TrustField[] {
  const fields: TrustField[] = [];
  const visit = (value: unknown, path: string, depth: number) => {
    if (fields.length >= MAX_TRUST_FIELDS) return;
    if (isComparable(value)) {
      if (path) fields.push({ path, value });
      return;
    }
    if (typeof value !== "object" || value === null || depth >= MAX_DEPTH) return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, `${path}[${index}]`, depth + 1));
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (KEY_PATTERN.test(key) && childPath.length <= MAX_PATH_CHARS) visit(child, childPath, depth + 1);
    }
  };
  // Only named fields: the arguments themselves (a scalar, or an array at the top) have no path a rule can name.
  if (typeof args === "object" && args !== null && !Array.isArray(args)) visit(args, "", 0);
  return fields;
}

function isComparable(value: unknown): value is TrustScalar {
  if (value === null || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  return typeof value === "string" && value.length <= MAX_VALUE_CHARS;
}
