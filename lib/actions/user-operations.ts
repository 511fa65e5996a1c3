/**
 * Users and roles (/admin/users and /api/admin/users), and each user's own email preference
 * (/profile and /api/profile/notifications), language and time zone (/profile and /api/profile):
 * the server actions and the JSON API run these.
 */
import { headers } from "next/headers";
import { z } from "zod";
import { accessRecorder, recordUserCreated } from "../audit/access-changes.ts";
import { can } from "../auth/roles.ts";
import type { Actor } from "../auth/session.ts";
import { changeRole, createAccount, generatePassword, listAccounts, newUserInput, setRoleInput, type NewUser } from "../auth/users.ts";
import { getDb } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { languagePreferenceInput, languagePreferenceOf, setLanguagePreference } from "../i18n/preferences.ts";
import { emailEnabled } from "../notifications/mail-config.ts";
import { emailModeOf, notificationPreferenceInput, setEmailMode } from "../notifications/preferences.ts";
import { operation } from "./operation.ts";

export const listUsersOperation = operation({
  name: "listUsers",
  permission: "manageUsers",
  input: z.object({}).strict(),
  run: () => listAccounts(),
});

/**
 * better-auth checks again, on the caller's own request, that an admin asks (asRequest). The audit
 * row follows the user's own transaction (better-auth's, which it cannot join).
 */
async function addUser(user: NewUser, actor: Actor) {
  let created: { id: string; email: string };
  try {
    created = await createAccount(user, { asRequest: await headers() });
  } catch (error) {
    throw new UserAdminError(error);
  }
  await recordUserCreated(await getDb(), actor, { id: created.id, email: created.email, role: user.role });
  return { id: created.id, email: created.email, role: user.role };
}

export const createUserOperation = operation({
  name: "createUser",
  permission: "manageUsers",
  input: newUserInput,
  run: (user, { actor }) => addUser(user, actor),
});

/**
 * The same user, but a script may leave the password out: one is generated and answered this once,
 * as `npm run users:create` prints it. A password that is sent is checked as the page checks it.
 */
export const createUserWithPasswordOperation = operation({
  name: "createUser",
  permission: "manageUsers",
  input: newUserInput.extend({ password: newUserInput.shape.password.optional() }),
  run: async ({ password, ...user }, { actor }) => {
    const generated = password === undefined ? generatePassword() : undefined;
    const created = await addUser({ ...user, password: password ?? generated! }, actor);
    return generated === undefined ? created : { ...created, password: generated };
  },
});

export const setUserRoleOperation = operation({
  name: "setUserRole",
  permission: "manageUsers",
  input: setRoleInput,
  run: ({ userId, role }, { actor }) => changeRole(userId, role, { actorId: actor.id, record: accessRecorder(actor, "change-role") }),
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

/** What /profile shows: the user's choice, whether they are ever emailed (who may decide), whether email is on. */
export const readNotificationPreferenceOperation = operation({
  name: "readNotificationPreference",
  permission: "read",
  input: z.object({}).strict(),
  run: async (_input, { actor }) => ({
    email: await emailModeOf(actor.id),
    notified: can(actor.role, "decide"),
    emailEnabled: emailEnabled(),
  }),
});

/** A reviewer's own email choice: only for themselves, and only for who may decide (support is never emailed). */
export const setNotificationPreferenceOperation = operation({
  name: "setNotificationPreference",
  permission: "decide",
  input: notificationPreferenceInput,
  run: async ({ email }, { actor }) => ({ email: await setEmailMode(ownProfileOf(actor), email) }),
});

/** The user whose profile this is: a service account's token has none to change (lib/auth/token-check.ts). */
function ownProfileOf(actor: Actor): string {
  if (actor.credential?.token?.owner === "service") throw new AppError("forbidden", "A service account has no profile to change.");
  return actor.id;
}

/** Who the session belongs to, and their language and time zone (null: the browser's), as /profile shows them. */
export const readProfileOperation = operation({
  name: "readProfile",
  permission: "read",
  input: z.object({}).strict(),
  run: async (_input, { actor }) => ({
    name: actor.name,
    email: actor.email,
    role: actor.role,
    ...(await languagePreferenceOf(actor.id)),
  }),
});

/** A user's own language and time zone (/profile, PATCH /api/profile): any signed-in role, for themselves only. */
export const setLanguagePreferenceOperation = operation({
  name: "setLanguagePreference",
  permission: "read",
  input: languagePreferenceInput,
  run: (input, { actor }) => setLanguagePreference(ownProfileOf(actor), input),
});
