/** The digest of what a reviewer is shown of a call (args-digest-text.ts), on the server. */
import { sha256Hex } from "./chain.ts";
import { argsDigestText, shownValue } from "./args-digest-text.ts";

export function argsDigestOf(call: { requiresApproval: boolean; args?: unknown; suspendPayload?: unknown }): string {
  return sha256Hex(argsDigestText(shownValue(call)));
}
