/**
 * The history page's link policy, the same as the runs page's: a bad parameter is left out and
 * reported, the other filters still apply (to the table, the form and the CSV link). Real server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

describe("the history page's URL parameters", () => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let cookie: string;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const [started, reviewer] = await Promise.all([startConsoleServer(database.url), createTestAccount(database.url, "reviewer")]);
    server = started;
    cookie = await sessionCookie(database.url, reviewer);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("drops only the bad parameter, says why, and keeps the others in the form and the export link", async () => {
    const response = await fetch(`${server.url}/history?reviewer=rita%40test.example&from=2026-02-30&outcome=applied`, {
      headers: { cookie },
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("from=2026-02-30 was ignored: From is not a valid date (use YYYY-MM-DD)");
    expect(html).toMatch(/name="reviewer"[^>]*value="rita@test.example"/);
    expect(html).toContain('href="/history/export?reviewer=rita%40test.example&amp;outcome=applied"');
  });
});
