"use server";

import { headers } from "next/headers";
import { createAccount, newUserInput } from "../auth/users.ts";
import { AppError } from "../errors.ts";
import { authorize } from "./authorize.ts";
import { invalidInput, runAction, type ActionResult } from "./result.ts";

export async function createUser(input: unknown): Promise<ActionResult<{ id: string; email: string }>> {
  const access = await authorize("manageUsers");
  if (!access.ok) return { ok: false, error: access.error };
  const parsed = newUserInput.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  return runAction("createUser", async () => {
    try {
      const user = await createAccount(parsed.data, { asRequest: await headers() });
      return { id: user.id, email: user.email };
    } catch (error) {
      throw new UserAdminError(error);
    }
  });
}

/** better-auth's refusal (e.g. "User already exists") is meant for the admin: pass its message on. */
class UserAdminError extends AppError {
  constructor(cause: unknown) {
    super("user_admin", (cause as { body?: { message?: string } })?.body?.message ?? (cause instanceof Error ? cause.message : "The user could not be saved."));
  }
}
