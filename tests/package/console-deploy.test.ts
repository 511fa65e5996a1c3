/**
 * `npm run db:deploy` on the database a team's Mastra app already uses, as the store package's README
 * has it shared with the console: it prints the database it migrated with a relative SQLite path made
 * absolute (what the README promises of every program, so a team sees which file a relative URL
 * meant), and on a database where Mastra's own store keeps its tables in the console's schema (a
 * PostgresStore without `schemaName`, a LibSQLStore on the console's file) it refuses naming those
 * tables and what to do, not with Prisma's bare "schema is not empty … baseline".
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/db/prisma-paths.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "console-deploy-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `npm run db:deploy` as the README runs it: its script, in `cwd` (where a relative path resolves). */
function deploy(databaseUrl: string, cwd = PROJECT_ROOT) {
  return spawnSync(path.join(PROJECT_ROOT, "node_modules/.bin/tsx"), [path.join(PROJECT_ROOT, "scripts/db-deploy.ts")], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: databaseUrl },
    timeout: 300_000,
  });
}

async function tableExists(databaseUrl: string, table: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(`SELECT to_regclass($1::text) IS NOT NULL AS "exists"`, [table])).rows[0].exists === true;
  } finally {
    await client.end();
  }
}

describe("npm run db:deploy", () => {
  const databases: TestDatabase[] = [];
  afterEach(async () => {
    for (const database of databases.splice(0)) await database.drop();
  });

  it("prints the SQLite file it migrated as an absolute path, for a relative DATABASE_URL", () => {
    const result = deploy("file:./data/console.db", scratch);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`file:${path.join(scratch, "data/console.db")}: applied `);
    expect(result.stdout).not.toContain("file:./");
  }, 300_000);

  it("refuses a PostgreSQL database whose default schema holds Mastra's PostgresStore tables, naming them and schemaName", async () => {
    const database = await createTestDatabase("postgres", { migrate: false });
    databases.push(database);
    const { PostgresStore } = await import("@mastra/pg");
    const mastra = new PostgresStore({ id: "app", connectionString: database.url });
    await mastra.init();
    await mastra.close();

    const result = deploy(database.url);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^Migrating postgres:\/\/\S+ failed: The database's default schema holds tables that are not the console's or the approvals store's: mastra_\w+, /m,
    );
    expect(result.stderr).toContain("Those are Mastra's own store's (PostgresStore without schemaName).");
    expect(result.stderr).toContain('(`schemaName: "mastra"`, as packages/mastra-store/README.md shows)');
    expect(await tableExists(database.url, "_prisma_migrations")).toBe(false);
  }, 300_000);

  it("migrates the same database when Mastra's tables have a schema of their own (schemaName)", async () => {
    const database = await createTestDatabase("postgres", { migrate: false });
    databases.push(database);
    const { PostgresStore } = await import("@mastra/pg");
    const mastra = new PostgresStore({ id: "app", connectionString: database.url, schemaName: "mastra" });
    await mastra.init();
    await mastra.close();

    const result = deploy(database.url);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/: applied \d+ migration\(s\)/);
  }, 300_000);

  it("refuses a SQLite file that holds Mastra's LibSQLStore tables, naming them and a file of its own", async () => {
    const file = path.join(scratch, "shared.db");
    // In a process of its own, as a Mastra app is: a LibSQLStore keeps the file open after close()
    // while its process lives, and the migrations would wait out their busy timeout for it.
    const code = `import { LibSQLStore } from "@mastra/libsql";
      const mastra = new LibSQLStore({ id: "app", url: ${JSON.stringify(`file:${file}`)} });
      await mastra.init();
      await mastra.close();`;
    const mastra = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(mastra.status, mastra.stderr).toBe(0);

    const result = deploy(`file:${file}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `Migrating file:${file} failed: The SQLite file holds tables that are not the console's or the approvals store's: mastra_`,
    );
    expect(result.stderr).toContain(
      "Those are Mastra's own store's (a LibSQLStore on this file). Give Mastra's own store a file of its own",
    );
  }, 300_000);
});
