/**
 * "Approve and trust" as a request sends it (the server action and POST /api/decisions with
 * `"action": "approve_and_trust"`), checked with zod on the server: the approval's fields, how long
 * (`duration`), which of the call's scalar arguments must stay the same (`sameArguments`, their
 * paths; the values are read from the call, never taken from the request), and the browser's time
 * zone for a reviewer who chose none on /profile.
 */
import { z } from "zod";
import { approveInput } from "../decisions/inputs.ts";
import { isTimeZone } from "../i18n/time-zones.ts";
import { MAX_PATH_CHARS, parsePath } from "./path.ts";
import { MAX_TRUST_FIELDS, TRUST_DURATIONS } from "./trust-fields.ts";

export const approveAndTrustInput = z
  .object({
    ...approveInput.shape,
    duration: z.enum(TRUST_DURATIONS, { error: 'duration must be "15m", "1h" or "today"' }),
    sameArguments: z
      .array(
        z
          .string({ error: "each of sameArguments must be a path, like amount or customer.id" })
          .max(MAX_PATH_CHARS)
          .refine((path) => parsePath(path) !== null, {
            error: (issue) => `"${String(issue.input).slice(0, 60)}" is not a path into the arguments`,
          }),
        { error: "sameArguments must be a list of paths" },
      )
      .max(MAX_TRUST_FIELDS, `sameArguments names at most ${MAX_TRUST_FIELDS} fields`)
      .refine((paths) => new Set(paths).size === paths.length, { error: "sameArguments names a field twice" })
      .default([]),
    timeZone: z
      .string({ error: "timeZone must be an IANA time zone" })
      .refine(isTimeZone, { error: "timeZone must be an IANA time zone, like Europe/Berlin" })
      .optional(),
  })
  .strict();

export type ApproveAndTrustInput = z.input<typeof approveAndTrustInput>;
