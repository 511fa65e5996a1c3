/**
 * The store's config as the package README writes it, `new PrismaWorkflowsStorage({ databaseUrl:
 * process.env.APPROVALS_DATABASE_URL })`, with the variable unset or empty: it names the variable, as
 * the CLI does, instead of failing on `undefined.startsWith` ("TypeError: Cannot read properties of
 * undefined (reading 'startsWith')"). The package as installed (its dist).
 */
import { PrismaWorkflowsStorage } from "@agent-approvals/mastra-store";
import { migrateStore, pendingStoreMigrations } from "@agent-approvals/mastra-store/migrate";
import { describe, expect, it } from "vitest";

const NAMES_THE_VARIABLE =
  /^The approvals store has no database \(its databaseUrl is (undefined|empty)\): set APPROVALS_DATABASE_URL, which the README's config passes it and `npx mastra-store migrate` reads, to file:<path> \(SQLite\) or postgres:\/\/user:password@host:5432\/db \(PostgreSQL\)\.$/;

describe("a store without a database URL", () => {
  it.each([
    ["unset", undefined],
    ["empty", ""],
  ])("PrismaWorkflowsStorage with the variable %s names APPROVALS_DATABASE_URL, where the config is built", (_, value) => {
    let thrown: unknown;
    try {
      new PrismaWorkflowsStorage({ databaseUrl: value as string });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).not.toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toMatch(NAMES_THE_VARIABLE);
  });

  it("the migrator named in code says the same", async () => {
    await expect(migrateStore(undefined as unknown as string)).rejects.toThrow(NAMES_THE_VARIABLE);
    await expect(pendingStoreMigrations(undefined as unknown as string)).rejects.toThrow(NAMES_THE_VARIABLE);
  });
});
