"use server";

import { getRunsPage } from "../runs/queries.ts";
import type { RunsPageDto } from "../runs/dto.ts";
import { runsQuery, type RunsQueryInput } from "../runs/validations.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

export async function listRuns(input: RunsQueryInput): Promise<ActionResult<RunsPageDto>> {
  const query = runsQuery.safeParse(input);
  if (!query.success) return invalidInput(query.error);
  return runAction("listRuns", () => getRunsPage(query.data));
}
