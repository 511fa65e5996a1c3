"use server";

import { z } from "zod";
import { getDb } from "../db/client.ts";
import { rawRunsParams, RUNS_PARAM_KEYS } from "../list-params.ts";
import { queueVersion } from "../live/etag.ts";
import type { RunsViewDto } from "../queue/dto.ts";
import { getRunsView } from "../queue/views.ts";
import { sanitizeQueueQuery } from "../search-params.ts";
import { defineAction } from "./define-action.ts";

/** Parameters as they come from a URL: known keys, strings of a sane length; checked further by sanitizeQueueQuery. */
const urlParams = z.partialRecord(
  z.enum(RUNS_PARAM_KEYS),
  z.string({ error: "URL parameters are strings" }).max(4_096, "a URL parameter is longer than 4,096 characters").nullish(),
);

const browseInput = z.strictObject({
  params: urlParams,
  /** The version of the view the table has (from its last answer): unchanged since, the answer is only that. */
  ifChanged: z.string().max(200, "a version is at most 200 characters").optional(),
});

/** The view and its version; or, when it has not changed since `ifChanged`, only the version. */
export type BrowseRunsResult = { version: string; view: RunsViewDto } | { version: string; unchanged: true };

/**
 * The runs table's listing. It takes the page's URL parameters as found, as the page itself does:
 * an invalid one is ignored and reported instead of failing the table. Scripts use GET /api/runs,
 * which refuses invalid input. A read that changes nothing for this reader (a tab coming back into
 * focus, the slow poll while the live stream is down) costs the version's indexed reads, not a page.
 */
export const browseRuns = defineAction(
  "browseRuns",
  // A NUL in a filter is one of the problems the table reports (lib/search-params.ts), not a refusal.
  { permission: "read", input: browseInput, lenientText: true },
  async ({ params, ifChanged }, { actor }): Promise<BrowseRunsResult> => {
    const raw = rawRunsParams(params);
    const applied = sanitizeQueueQuery(raw);
    const version = await queueVersion(await getDb(), actor.id, raw, { scope: applied.query });
    if (ifChanged === version) return { version, unchanged: true };
    return { version, view: await getRunsView(applied, actor.id) };
  },
);
