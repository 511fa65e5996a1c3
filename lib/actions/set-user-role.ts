"use server";

import { headers } from "next/headers";
import { setRole, setRoleInput } from "../auth/users.ts";
import { authorize } from "./authorize.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

export async function setUserRole(input: unknown): Promise<ActionResult<{ userId: string; role: string }>> {
  const access = await authorize("manageUsers");
  if (!access.ok) return { ok: false, error: access.error };
  const parsed = setRoleInput.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  if (parsed.data.userId === access.actor.id && parsed.data.role !== "admin") {
    return { ok: false, error: { code: "invalid_input", message: "You cannot remove your own admin role: ask another admin." } };
  }
  return runAction("setUserRole", async () => {
    await setRole(parsed.data.userId, parsed.data.role, { asRequest: await headers() });
    return parsed.data;
  });
}
