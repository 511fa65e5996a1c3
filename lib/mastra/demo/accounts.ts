/** The demo's accounts, one per role, with the passwords the README publishes. Never deploy them. */
import { createAccount, type NewUser } from "../../auth/users.ts";
import { databaseUrlFromEnv, getDb } from "../../db/client.ts";

/** One account per role, for the demo only. Their passwords are in the README. */
export const DEMO_ACCOUNTS: ReadonlyArray<NewUser> = [
  { name: "Ada Admin", email: "admin@demo.example", role: "admin", password: "demo-admin-password" },
  { name: "Rita Reviewer", email: "reviewer@demo.example", role: "reviewer", password: "demo-reviewer-password" },
  { name: "Sam Support", email: "support@demo.example", role: "support", password: "demo-support-password" },
];

/** Creates the demo accounts that do not exist yet; returns all of them. */
export async function ensureDemoAccounts(databaseUrl: string = databaseUrlFromEnv()) {
  const db = await getDb(databaseUrl);
  for (const account of DEMO_ACCOUNTS) {
    if (!(await db.user.findUnique({ where: { email: account.email } }))) await createAccount(account, { databaseUrl });
  }
  return DEMO_ACCOUNTS;
}
