/**
 * Accounts. Nobody signs up: admins create users (the admin page, or `npm run users:create` for the
 * first one); the demo's accounts are in lib/mastra/demo/accounts.ts.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { getAuth, MIN_PASSWORD_LENGTH } from "./auth.ts";
import { idTextProblem, unstorableTextProblem } from "../safe-text.ts";
import { ROLES, type Role } from "./roles.ts";

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

export async function setRole(userId: string, role: Role, { asRequest }: { asRequest: Headers }) {
  const auth = await getAuth();
  await auth.api.setRole({ body: { userId, role }, headers: asRequest });
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
