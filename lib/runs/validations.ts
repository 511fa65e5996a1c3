import { z } from "zod";
import { idSchema } from "../ids.ts";

const id = idSchema;

const date = (label: string) => z.union([z.date(), z.string(), z.number()]).pipe(z.coerce.date({ error: `${label} is not a valid date` }));

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
