/** Accounts and signed-in sessions for tests, made through the product's own auth code. */
import { randomUUID } from "node:crypto";
import { getAuth } from "../../lib/auth/auth.ts";
import type { Role } from "../../lib/auth/roles.ts";
import type { Actor } from "../../lib/auth/session.ts";
import { createAccount } from "../../lib/auth/users.ts";

/** The secret test processes and the servers they start share, so session cookies verify. */
export const TEST_AUTH_SECRET = "test-secret-for-the-approvals-console-test-suite-0123456789";
process.env.BETTER_AUTH_SECRET ??= TEST_AUTH_SECRET;

export interface TestAccount extends Actor {
  password: string;
}

export async function createTestAccount(
  databaseUrl: string,
  role: Role,
  name = `${role}-${randomUUID().slice(0, 8)}`,
): Promise<TestAccount> {
  const password = `pw-${randomUUID()}`;
  const email = `${name.toLowerCase().replace(/[^a-z0-9-]/g, "-")}@test.example`;
  const user = await createAccount({ name, email, role, password }, { databaseUrl });
  return { id: user.id, name, email, role, password };
}

/**
 * A signed session cookie (`name=value`) for the account, as a browser signed in to a console
 * server would hold it. Servers under test run in production mode, where the cookie is Secure and
 * so carries the `__Secure-` prefix; this process is not, so the prefix is added here.
 */
export async function sessionCookie(databaseUrl: string, account: TestAccount): Promise<string> {
  const auth = await getAuth(databaseUrl);
  const { headers } = await auth.api.signInEmail({ body: { email: account.email, password: account.password }, returnHeaders: true });
  const cookie = headers
    .getSetCookie()
    .find((line) => /session_token=/.test(line))
    ?.split(";")[0];
  if (!cookie) throw new Error(`No session cookie for ${account.email}`);
  return cookie.startsWith("__Secure-") ? cookie : `__Secure-${cookie}`;
}

/** A fixed actor for calling server actions outside a request (lib/auth/session.ts `runAs`). */
export const actorOf = ({ password: _, ...actor }: TestAccount): Actor => actor;
