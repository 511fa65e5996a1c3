"use server";

import { z } from "zod";
import type { RunDetailDto } from "../queue/dto.ts";
import { getRunDetail } from "../queue/views.ts";
import { approveInput } from "../decisions/inputs.ts";
import { authorize } from "./authorize.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

const getRunInput = approveInput.pick({ runId: true });

export async function getRun(input: z.input<typeof getRunInput>): Promise<ActionResult<RunDetailDto>> {
  const access = await authorize("read");
  if (!access.ok) return { ok: false, error: access.error };
  const parsed = getRunInput.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  const result = await runAction("getRun", () => getRunDetail(parsed.data.runId));
  if (!result.ok) return result;
  if (!result.data) {
    return { ok: false, error: { code: "run_not_found", message: `No suspended run "${parsed.data.runId}": it does not exist or was already decided.` } };
  }
  return { ok: true, data: result.data };
}
