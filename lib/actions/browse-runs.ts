"use server";

import { z } from "zod";
import { rawRunsParams, RUNS_PARAM_KEYS } from "../list-params.ts";
import type { RunsViewDto } from "../queue/dto.ts";
import { getRunsView } from "../queue/views.ts";
import { defineAction } from "./define-action.ts";

/** Parameters as they come from a URL: known keys, strings of a sane length; checked further by getRunsView. */
const urlParams = z.partialRecord(
  z.enum(RUNS_PARAM_KEYS),
  z.string({ error: "URL parameters are strings" }).max(4_096, "a URL parameter is longer than 4,096 characters").nullish(),
);

/**
 * The runs table's listing. It takes the page's URL parameters as found, as the page itself does:
 * an invalid one is ignored and reported instead of failing the table. Scripts use GET /api/runs,
 * which refuses invalid input.
 */
export const browseRuns = defineAction(
  "browseRuns",
  // A NUL in a filter is one of the problems the table reports (lib/search-params.ts), not a refusal.
  { permission: "read", input: urlParams, lenientText: true },
  (params, { actor }): Promise<RunsViewDto> => getRunsView(rawRunsParams(params), actor.id),
);
