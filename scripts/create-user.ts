/**
 * `npm run users:create -- --email you@example.com --name "Your Name" --role admin [--password …]`
 * Creates an account (the first admin, typically). Without --password a strong one is generated
 * and printed once. Works on DATABASE_URL.
 */
import { parseArgs } from "node:util";
import { recordUserCreated } from "../lib/audit/access-changes.ts";
import { databaseUrlFromEnv, disconnectDb, getDb } from "../lib/db/client.ts";
import { createAccount, generatePassword, newUserInput } from "../lib/auth/users.ts";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    name: { type: "string" },
    role: { type: "string", default: "admin" },
    password: { type: "string" },
  },
});
const generated = values.password ? undefined : generatePassword();
const parsed = newUserInput.safeParse({
  email: values.email,
  name: values.name ?? values.email?.split("@")[0],
  role: values.role,
  password: values.password ?? generated,
});
if (!parsed.success) {
  console.error(`Cannot create the user: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  console.error('Usage: npm run users:create -- --email you@example.com --name "Your Name" --role admin|reviewer|support [--password …]');
  process.exit(2);
}
const databaseUrl = databaseUrlFromEnv();
try {
  const user = await createAccount(parsed.data, { databaseUrl });
  // Who gave the access, as the history names it: whoever ran the command on the server.
  await recordUserCreated(await getDb(databaseUrl), { email: "npm run users:create" }, { ...user, role: parsed.data.role });
  console.log(`Created ${user.email} (${parsed.data.role}).`);
  if (generated) console.log(`Password (shown once): ${generated}`);
  await disconnectDb(databaseUrl);
  process.exit(0);
} catch (error) {
  console.error(`Cannot create the user: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
