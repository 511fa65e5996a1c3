import { z } from "zod";
import { idSchema } from "../ids.ts";
import { EARLIEST_DAY, isFilterableDate, LATEST_DAY, QUEUE_SORTS } from "../list-params.ts";
import { RISKS } from "../risk.ts";

const id = idSchema;

const date = (label: string) =>
  z
    .union([z.date(), z.string(), z.number()])
    .pipe(z.coerce.date({ error: `${label} is not a valid date` }))
    .refine(isFilterableDate, `${label} must be a date from ${EARLIEST_DAY} to ${LATEST_DAY} (UTC)`);

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

/**
 * A thread on a queue page shows at most this many of its calls unless asked for more ("Show all N").
 * Ten fill a screen per thread; at 50 a first page of 20 long threads was ~930 calls, which every
 * page view read, serialised twice (HTML and the client table's data) and sent: three quarters of
 * what a reviewer's request cost the server under load (bench/README.md, the open loop).
 */
export const CALLS_PER_THREAD = 10;
export const MAX_CALLS_PER_THREAD = 1_000;

/** Options of the review queue's listing of threads (lib/runs/list-threads.ts); `page` is 0-based. */
export const listThreadsOptions = z
  .object({
    agentId: id("agentId").optional(),
    threadId: id("threadId").optional(),
    resourceId: id("resourceId").optional(),
    fromDate: date("fromDate").optional(),
    toDate: date("toDate").optional(),
    /** Calls waiting since before this instant are overdue. */
    overdueBefore: date("overdueBefore"),
    /** Only overdue calls, and the threads that have one. */
    onlyOverdue: z.boolean().default(false),
    /** Only runs without a thread (one group). */
    noThread: z.boolean().default(false),
    /** Only calls assigned to this user (their own assignment, or their thread's). */
    assignedTo: id("assignedTo").optional(),
    /** Only runs with a waiting call of one of these risks (lib/runs/risk-sql.ts). */
    risks: z.array(z.enum(RISKS)).min(1).max(RISKS.length).optional(),
    /** Each risk's overdue cutoff: a call with a risk is overdue against its own, not overdueBefore. */
    riskCutoffs: z
      .object({
        low: date("riskCutoffs.low"),
        medium: date("riskCutoffs.medium"),
        high: date("riskCutoffs.high"),
        critical: date("riskCutoffs.critical"),
      })
      .strict()
      .optional(),
    sort: z.enum(QUEUE_SORTS, { error: `sort must be one of ${QUEUE_SORTS.join(", ")}` }).default("oldest"),
    perPage: z.number().int().min(1, "perPage must be at least 1").max(100, "perPage must be at most 100").default(20),
    page: z.number().int().nonnegative("page must be a non-negative integer").max(1_000_000).default(0),
    callsPerThread: z.number().int().min(1).max(MAX_CALLS_PER_THREAD).default(CALLS_PER_THREAD),
  })
  .strict()
  .refine((options) => !options.fromDate || !options.toDate || options.fromDate <= options.toDate, {
    message: "fromDate must not be after toDate",
    path: ["toDate"],
  });

export type ListThreadsOptions = z.input<typeof listThreadsOptions>;
