/**
 * The decision actions' input schemas, checked on the server for every request (server actions and
 * the JSON API alike). Resume data arrives as JSON text and is parsed here, not trusted.
 */
import { z } from "zod";
import { idSchema, textCheck } from "../ids.ts";
import { unstorableTextProblem } from "../safe-text.ts";
import { jsonSyntaxMessage } from "./issue-english.ts";
import { LIMITS } from "./limits.ts";
import { ARGS_DIGEST_PATTERN } from "../audit/args-digest-text.ts";

const id = idSchema;

const runRef = {
  runId: id("runId"),
  toolCallId: id("toolCallId"),
  /**
   * The agent the reviewer saw as the owner. Optional; the owner always comes from the stored
   * snapshot, and a request naming another agent is refused rather than trusted.
   */
  agentId: id("agentId").optional(),
  /**
   * The digest of the arguments the reviewer was shown (lib/audit/args-digest-text.ts). Given, the
   * decision is refused unless the call still waits on exactly those; without it the server records
   * the digest of what it read when deciding.
   */
  argsDigest: z
    .string({ error: "argsDigest must be text" })
    .regex(ARGS_DIGEST_PATTERN, "argsDigest must be 64 lowercase hex digits (SHA-256)")
    .optional(),
};

/**
 * Sent when the reviewer confirmed that the call's last decision was interrupted and its tool may
 * already have run; without it the server refuses to approve or resume such a call again.
 */
const riskConfirmation = { confirmMayHaveRun: z.boolean({ error: "confirmMayHaveRun must be true or false" }).optional() };

export const approveInput = z.object({ ...runRef, ...riskConfirmation }).strict();

/** A decline's reason, passed to the agent and kept in the history; blank is no reason. */
const reason = z
  .string({ error: "reason must be a string" })
  .trim()
  .max(LIMITS.reasonLength, `reason is longer than ${LIMITS.reasonLength} characters`)
  .superRefine(textCheck("reason", unstorableTextProblem))
  .optional()
  .transform((reason) => (reason ? reason : undefined));

export const declineInput = z.object({ ...runRef, reason }).strict();

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Resume data arrives as JSON text, so what the server checks is exactly what the reviewer typed:
 * it must parse, stay under the size and depth limits, and carry no prototype-polluting keys.
 */
export const resumeDataText = z
  .string({ error: "resume data must be JSON text" })
  .refine((text) => new TextEncoder().encode(text).length <= LIMITS.resumeDataBytes, {
    message: `resume data is larger than ${LIMITS.resumeDataBytes / 1024} KiB`,
    abort: true,
  })
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Our own wording with line and column: JSON.parse's message differs between engines.
      context.addIssue({ code: "custom", message: jsonSyntaxMessage(text, "subjectResumeData") ?? "The resume data is not valid JSON" });
      return z.NEVER;
    }
  })
  .superRefine((value, context) => {
    const problem = jsonShapeProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

function jsonShapeProblem(value: unknown, depth = 0, path = "resume data"): string | undefined {
  if (depth > LIMITS.resumeDataDepth) return `resume data is nested deeper than ${LIMITS.resumeDataDepth} levels`;
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (!Array.isArray(value) && FORBIDDEN_KEYS.has(key)) return `${path} has a forbidden key "${key}"`;
    const problem = jsonShapeProblem(child, depth + 1, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`);
    if (problem) return problem;
  }
  return undefined;
}

export const resumeInput = z.object({ ...runRef, ...riskConfirmation, resumeData: resumeDataText }).strict();

/**
 * Approve or decline many calls at once (Approve selected / Decline selected): one action, one
 * reason for all, at most LIMITS.bulkCalls calls, each named once. Resume data is never bulk: each
 * suspend() call asks for its own. (A list longer than the limit is refused as `too_many_calls`
 * before this schema reads it: lib/actions/run-bulk-decision.ts.)
 */
export const bulkInput = z
  .object({
    action: z.enum(["approve", "decline"], { error: 'action must be "approve" or "decline" (resume data is never sent in bulk)' }),
    calls: z
      .array(z.object(runRef).strict(), { error: "calls must be a list of { runId, toolCallId }" })
      .min(1, "calls must name at least one tool call")
      .max(LIMITS.bulkCalls, `At most ${LIMITS.bulkCalls} calls per request`)
      .superRefine((calls, context) => {
        const seen = new Map<string, number>();
        calls.forEach((call, index) => {
          const key = JSON.stringify([call.runId, call.toolCallId]);
          const first = seen.get(key);
          if (first === undefined) seen.set(key, index);
          else
            context.addIssue({
              code: "custom",
              path: [index],
              message: `calls[${index}] repeats calls[${first}] (tool call "${call.toolCallId}" of run "${call.runId}"): name each call once`,
            });
        });
      }),
    reason,
  })
  .strict()
  .superRefine((input, context) => {
    if (input.action !== "decline" && input.reason !== undefined) {
      context.addIssue({ code: "custom", path: ["reason"], message: "reason goes with decline only" });
    }
  });

export type BulkInput = z.input<typeof bulkInput>;
export type ApproveInput = z.input<typeof approveInput>;
export type DeclineInput = z.input<typeof declineInput>;
export type ResumeInput = z.input<typeof resumeInput>;
