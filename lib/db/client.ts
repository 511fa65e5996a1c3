/**
 * The one place that turns a database URL into a Prisma client. `file:` URLs are the embedded SQLite
 * default, `postgres://` / `postgresql://` URLs a shared PostgreSQL. Each provider has its own
 * generated client (prisma/{sqlite,postgres}); both expose the same models, so callers see one type.
 */
import { connectDatabase, refreshPlannerStatistics } from "@agent-approvals/mastra-store";
import { absoluteDatabaseUrl, DEFAULT_DATABASE_URL } from "./database-url.ts";
import { forgetCached, processCache } from "../process-cache.ts";
import type { PrismaClient as SqlitePrismaClient } from "../generated/sqlite/client.ts";

export type Db = SqlitePrismaClient;

export function databaseUrlFromEnv(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

/**
 * A new client for `url`, opened by the store package (the SQLite connection every statement of the
 * process takes turns on, WAL, planner statistics; PostgreSQL's pool). The store's own writes go
 * through this same client (lib/store), so a process has one connection per SQLite file. Prefer
 * `getDb`, which keeps one per URL for the whole process.
 */
export async function createDb(url: string): Promise<Db> {
  return connectDatabase<Db>(absoluteDatabaseUrl(url), {
    sqlite: async () => (await import("../generated/sqlite/client.ts")).PrismaClient,
    // Both generated clients have the same models and methods; only their provider differs.
    postgres: async () => (await import("../generated/postgres/client.ts")).PrismaClient as unknown as typeof SqlitePrismaClient,
  });
}

/** Refreshes the planner's statistics where they went stale (SQLite; PostgreSQL's autovacuum does this itself). */
export async function optimizeDatabase(url: string = databaseUrlFromEnv()): Promise<void> {
  await refreshPlannerStatistics(await getDb(url));
}

const clients = processCache("db", createDb);

/** The process-wide client for `url` (default: DATABASE_URL), created on first use. */
export function getDb(url: string = databaseUrlFromEnv()): Promise<Db> {
  return clients(url);
}

export async function disconnectDb(url: string): Promise<void> {
  const db = forgetCached("db", url) as Promise<Db> | undefined;
  if (db) await (await db).$disconnect();
}
