import { z } from "zod";
import { idTextProblem, unstorableTextProblem } from "../safe-text.ts";

const id = (label: string) =>
  z
    .string({ error: `${label} must be a string` })
    .trim()
    .min(1, `${label} must not be empty`)
    .max(256, `${label} is longer than 256 characters`)
    .superRefine((text, context) => {
      const problem = idTextProblem(text);
      if (problem) context.addIssue({ code: "custom", message: `${label} ${problem}` });
    });

const date = (label: string) =>
  z.union([z.date(), z.string(), z.number()]).pipe(
    z.coerce.date({ error: `${label} is not a valid date` }),
  );

/**
 * Options of the cross-agent listing: the contract's listSuspendedRuns options plus `agentId`.
 * Like the contract, pagination applies only when both perPage and page are given.
 */
export const listSuspendedRunsOptions = z
  .object({
    agentId: id("agentId").optional(),
    threadId: id("threadId").optional(),
    resourceId: id("resourceId").optional(),
    fromDate: date("fromDate").optional(),
    toDate: date("toDate").optional(),
    perPage: z
      .number({ error: "perPage must be a number" })
      .int("perPage must be a positive integer")
      .positive("perPage must be a positive integer")
      .optional(),
    page: z
      .number({ error: "page must be a number" })
      .int("page must be a non-negative integer")
      .nonnegative("page must be a non-negative integer")
      .optional(),
  })
  .strict()
  .refine((options) => !options.fromDate || !options.toDate || options.fromDate <= options.toDate, {
    message: "fromDate must not be after toDate",
    path: ["toDate"],
  });

export type ListSuspendedRunsOptions = z.input<typeof listSuspendedRunsOptions>;

/* ---------- decisions ---------- */

export const LIMITS = {
  idLength: 256,
  reasonLength: 2_000,
  /** Resume data as JSON text, in bytes. */
  resumeDataBytes: 64 * 1024,
  resumeDataDepth: 32,
} as const;

const runRef = {
  runId: id("runId"),
  toolCallId: id("toolCallId"),
  /**
   * The agent the reviewer saw as the owner. Optional; the owner always comes from the stored
   * snapshot, and a request naming another agent is refused rather than trusted.
   */
  agentId: id("agentId").optional(),
};

/**
 * Sent when the reviewer confirmed that the call's last decision was interrupted and its tool may
 * already have run; without it the server refuses to approve or resume such a call again.
 */
const riskConfirmation = { confirmMayHaveRun: z.boolean({ error: "confirmMayHaveRun must be true or false" }).optional() };

export const approveInput = z.object({ ...runRef, ...riskConfirmation }).strict();

export const declineInput = z
  .object({
    ...runRef,
    reason: z
      .string({ error: "reason must be a string" })
      .trim()
      .max(LIMITS.reasonLength, `reason is longer than ${LIMITS.reasonLength} characters`)
      .superRefine((text, context) => {
        const problem = unstorableTextProblem(text);
        if (problem) context.addIssue({ code: "custom", message: `reason ${problem}` });
      })
      .optional()
      .transform((reason) => (reason ? reason : undefined)),
  })
  .strict();

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
    } catch (error) {
      context.addIssue({ code: "custom", message: `resume data is not valid JSON: ${(error as Error).message}` });
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

export type ApproveInput = z.input<typeof approveInput>;
export type DeclineInput = z.input<typeof declineInput>;
export type ResumeInput = z.input<typeof resumeInput>;
