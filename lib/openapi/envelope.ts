/**
 * The answers every JSON route shares, as zod schemas for the OpenAPI document (lib/openapi): the
 * `{ ok: true, data }` envelope, and `{ ok: false, error }` with the codes of lib/errors.ts grouped
 * by their HTTP status, as `httpStatusOf` maps them.
 */
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../errors.ts";

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

const issueSchema = z
  .object({
    path: z.string().meta({ description: "Where, as a dotted path (`items[0].name`); empty for the value itself." }),
    message: z.string().meta({ description: "A whole sentence naming the field, in English." }),
    words: z.looseObject({}).optional().meta({ description: "The same as catalog words, for a reader of another language." }),
  })
  .meta({ id: "Issue" });

const priorDecisionSchema = z
  .object({
    reviewer: z.string(),
    action: z.enum(["approve", "decline", "resume"]),
    state: z.string(),
    decidedAt: z.string(),
  })
  .meta({ id: "PriorDecision", description: "With already_decided: who decided the call first, what and when." });

/** lib/actions/result.ts `ActionError`, as it goes over the wire. */
export function actionErrorSchema(codes: readonly ErrorCode[] = ERROR_CODES) {
  return z.object({
    code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    issues: z.array(issueSchema).optional(),
    priorDecision: priorDecisionSchema.optional(),
    retryAfterSeconds: z.number().int().optional().meta({ description: "With rate_limited: when to try again." }),
  });
}

export function okEnvelope<Data extends z.ZodType>(data: Data) {
  return z.object({ ok: z.literal(true), data });
}

export function errorEnvelope(codes: readonly ErrorCode[]) {
  return z.object({ ok: z.literal(false), error: actionErrorSchema(codes) });
}

/** The codes by status, in the table's order: one documented answer per status. */
export function codesByStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERROR_CODES.filter((known) => codes.includes(known))) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}
