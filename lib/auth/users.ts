/**
 * Accounts. Nobody signs up: admins create users (the admin page, or `npm run users:create` for the
 * first one); the demo's accounts are in lib/mastra/demo/accounts.ts.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { databaseProvider } from "../db/database-url.ts";
import { AppError } from "../errors.ts";
import { getAuth, MIN_PASSWORD_LENGTH } from "./auth.ts";
import { idTextProblem, unstorableTextProblem } from "../safe-text.ts";
import { isRole, ROLES, type Role } from "./roles.ts";
import type { AccessRecorder } from "./tokens.ts";

export const newUserInput = z
  .object({
    name: z
      .string({ error: "Name is required" })
      .trim()
      .min(1, "Name is required")
      .max(100, "Name is longer than 100 characters")
      .refine((name) => !unstorableTextProblem(name), "Name contains a NUL character or invalid Unicode"),
    email: z
      .email({ error: "Email is not a valid address" })
      .max(254)
      .transform((email) => email.toLowerCase()),
    role: z.enum(ROLES, { error: `Role must be one of ${ROLES.join(", ")}` }),
    password: z
      .string({ error: "Password is required" })
      .min(MIN_PASSWORD_LENGTH, `Password must have at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(128, "Password is longer than 128 characters"),
  })
  .strict();

export const setRoleInput = z
  .object({
    userId: z
      .string()
      .min(1)
      .max(256)
      .refine((id) => !idTextProblem(id), "userId contains a control character or invalid Unicode"),
    role: z.enum(ROLES, { error: `Role must be one of ${ROLES.join(", ")}` }),
  })
  .strict();

export type NewUser = z.output<typeof newUserInput>;

/**
 * Creates an account with email and password. With `asRequest` (the admin page) better-auth checks
 * again that the caller is an admin; without it (a server-side command) it trusts the caller.
 */
export async function createAccount(
  user: NewUser,
  { asRequest, databaseUrl = databaseUrlFromEnv() }: { asRequest?: Headers; databaseUrl?: string } = {},
) {
  const auth = await getAuth(databaseUrl);
  const { user: created } = await auth.api.createUser({
    body: { email: user.email, password: user.password, name: user.name, role: user.role },
    headers: asRequest,
  });
  return created;
}

/**
 * Gives `userId` the role `role`, refusing to leave the console without an admin: not your own
 * admin role (ask another admin), and never the last admin's. On PostgreSQL the admins' rows are
 * locked first, so two admins demoting each other at the same moment cannot both succeed; SQLite
 * has one writer at a time.
 */
export async function changeRole(
  userId: string,
  role: Role,
  { actorId, record, databaseUrl = databaseUrlFromEnv() }: { actorId: string; record: AccessRecorder; databaseUrl?: string },
): Promise<{ userId: string; role: Role }> {
  if (userId === actorId && role !== "admin") {
    throw new AppError("invalid_input", "You cannot remove your own admin role: ask another admin.");
  }
  const db = await getDb(databaseUrl);
  return db.$transaction(async (tx) => {
    const admins: Array<{ id: string }> =
      databaseProvider(databaseUrl) === "postgres"
        ? await tx.$queryRaw`SELECT id FROM auth_users WHERE role = 'admin' FOR UPDATE`
        : await tx.user.findMany({ where: { role: "admin" }, select: { id: true } });
    const user = await tx.user.findUnique({ where: { id: userId }, select: { role: true, email: true } });
    if (!user) throw new AppError("user_not_found", `No user with id "${userId}".`);
    if (user.role === "admin" && role !== "admin" && admins.every((admin) => admin.id === userId)) {
      throw new AppError("invalid_input", "This is the only admin: make someone else an admin first.");
    }
    // The same role again changes nothing, and so writes no audit row.
    if (user.role !== role) {
      const now = new Date();
      await tx.user.update({ where: { id: userId }, data: { role } });
      await record(
        tx,
        {
          message: `Changed the role of ${user.email} (${userId}) from ${user.role ?? "none"} to ${role}.`,
          subject: { kind: "user", id: userId, email: user.email, role, previousRole: isRole(user.role) ? user.role : null },
        },
        now,
      );
    }
    return { userId, role };
  });
}

export async function listAccounts(databaseUrl: string = databaseUrlFromEnv()) {
  const db = await getDb(databaseUrl);
  return db.user.findMany({
    orderBy: [{ role: "asc" }, { email: "asc" }],
    select: { id: true, name: true, email: true, role: true, banned: true, createdAt: true },
  });
}

export function generatePassword(): string {
  return randomBytes(15).toString("base64url");
}
