"use server";

import { headers } from "next/headers";
import { createAccount, newUserInput } from "../auth/users.ts";
import { AppError } from "../errors.ts";
import { defineAction } from "./define-action.ts";

export const createUser = defineAction("createUser", { permission: "manageUsers", input: newUserInput }, async (user) => {
  try {
    const created = await createAccount(user, { asRequest: await headers() });
    return { id: created.id, email: created.email };
  } catch (error) {
    throw new UserAdminError(error);
  }
});

/** better-auth's refusal (e.g. "User already exists") is meant for the admin: pass its message on. */
class UserAdminError extends AppError {
  constructor(cause: unknown) {
    super(
      "user_admin",
      (cause as { body?: { message?: string } })?.body?.message ??
        (cause instanceof Error ? cause.message : "The user could not be saved."),
    );
  }
}
