/**
 * Whether the console's database has every migration applied: the store package's (its tables and
 * triggers, `mastra_store_migrations`) and the console's own (`_prisma_migrations`). server.mjs
 * refuses to start without them and /api/health reports them: a console on a database missing a
 * migration answers pages until the first query that needs the missing table, or, worse, runs on
 * triggers that quietly keep the queue's summaries wrong.
 *
 * Plain JavaScript so server.mjs can import it (types: migration-status.d.mts). It opens its own
 * short connection and changes nothing, never creating a SQLite file.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import {
  appliedMigrationNames,
  databaseProvider,
  pendingStoreMigrations,
  redactUrl,
  sqliteFilePath,
} from "@agent-approvals/mastra-store/migrate";

const DEPLOY_COMMAND = "npm run db:deploy";

/** The console's database when DATABASE_URL is unset: data/console.db of the folder npm scripts run in, the project root. */
export const DEFAULT_DATABASE_URL = "file:./data/console.db";

/**
 * Why the console cannot run on `databaseUrl`, or null when every migration is there: `unreachable`
 * (the database did not answer, `detail` says why, `transient` whether asking again later may get an
 * answer), `store` or `console` (migrations missing). The `message` names the command that fixes it;
 * `summary` says the same without the database's address, for answers to unauthenticated callers.
 */
export async function migrationProblem(databaseUrl, projectRoot = process.cwd()) {
  const where = databaseLabel(databaseUrl);
  let store;
  let console_;
  try {
    [store, console_] = await Promise.all([pendingStoreMigrations(databaseUrl), pendingConsoleMigrations(databaseUrl, projectRoot)]);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      kind: "unreachable",
      summary: "database unreachable",
      message: `the database ${where} cannot be reached: ${detail}`,
      detail,
      transient: isTransient(error),
    };
  }
  // In the order `npm run db:deploy` applies them: the store's first.
  for (const [kind, missing, whose] of [
    ["store", store, "the approvals store's"],
    ["console", console_, "the console's"],
  ]) {
    if (missing.length === 0) continue;
    const names = missing.length > 3 ? `${missing.slice(0, 3).join(", ")} and ${missing.length - 3} more` : missing.join(", ");
    const summary = `${whose} migrations are not applied (missing: ${names}): run \`${DEPLOY_COMMAND}\``;
    return {
      kind,
      summary,
      message:
        `${whose} migrations are not applied to ${where} (missing: ${names}). Run \`${DEPLOY_COMMAND}\` with this ` +
        `DATABASE_URL: it applies the store's migrations first, then the console's.`,
    };
  }
  return null;
}

/** The database for messages: a SQLite path made absolute, a password masked; an unsupported URL as it is. */
export function databaseLabel(databaseUrl) {
  try {
    return redactUrl(databaseProvider(databaseUrl) === "sqlite" ? `file:${sqliteFilePath(databaseUrl)}` : databaseUrl);
  } catch {
    return redactUrl(databaseUrl);
  }
}

/**
 * Errors of a database that is not up yet, or too busy right now: asking again may succeed. Anything
 * else (authentication failed, no such database or role, an unsupported or malformed URL, a file
 * that is not a database) stays as it is however often it is asked.
 */
const TRANSIENT_CODES = new Set([
  // The server is not listening yet, or its host not reachable (or not in DNS yet, as in a compose
  // or Kubernetes start where the database's name appears with its container).
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
  // PostgreSQL: starting up, shutting down or in recovery (57P03), stopped by an administrator
  // (57P01), out of connection slots (53300), connection failures (08xxx are matched below).
  "57P03",
  "57P01",
  "53300",
  // SQLite: another process holds the file's lock past the busy timeout (a migration rewriting it).
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
]);
/** What pg says, without a code, when a connection was not set up in time or was dropped while it was. */
const TRANSIENT_MESSAGES = /^(timeout expired|Connection terminated (unexpectedly|due to connection timeout))$/;

function isTransient(error) {
  const code = error?.code ?? error?.errors?.[0]?.code; // AggregateError: one per address tried
  if (typeof code === "string" && (TRANSIENT_CODES.has(code) || code.startsWith("08"))) return true;
  return TRANSIENT_MESSAGES.test(error?.message ?? "");
}

/** The console's migrations (prisma/<provider>/migrations) not recorded as finished in `_prisma_migrations`. */
async function pendingConsoleMigrations(databaseUrl, projectRoot) {
  const provider = databaseProvider(databaseUrl);
  const folder = path.join(projectRoot, "prisma", provider, "migrations");
  const expected = (await readdir(folder, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b));
  const applied = await appliedMigrationNames(databaseUrl, "_prisma_migrations", APPLIED);
  return expected.filter((name) => !applied.has(name));
}

const APPLIED = `SELECT "migration_name" AS "name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`;
