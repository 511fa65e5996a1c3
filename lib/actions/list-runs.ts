"use server";

import { getRunsPage } from "../queue/views.ts";
import type { RunsPageDto } from "../queue/dto.ts";
import { runsQuery, type RunsQueryInput } from "../search-params.ts";
import { authorize } from "./authorize.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

export async function listRuns(input: RunsQueryInput): Promise<ActionResult<RunsPageDto>> {
  const access = await authorize("read");
  if (!access.ok) return { ok: false, error: access.error };
  const query = runsQuery.safeParse(input);
  if (!query.success) return invalidInput(query.error);
  return runAction("listRuns", () => getRunsPage(query.data));
}
