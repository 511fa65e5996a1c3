/**
 * Numbers in requests, against real console servers on SQLite and PostgreSQL: an expiry rule's
 * minutes used to go through `z.coerce.number()`, so `true` was saved as 1 minute, `[5]` as 5 and
 * `"0x10"` as 16; a list's `page` took hex and exponents the same way. Now a number is a JSON
 * number or plain digits (a form's "15"), anything else is refused with invalid_input naming the
 * field, and the settings stored are left as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { callServerAction, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

/** What coercion read as a number, and what no whole number of minutes is. */
const NOT_MINUTES: unknown[] = [true, false, [5], "0x10", "1e3", "", " ", "  5", "5 ", "2.5", 2.5, "+5", "-5", -5, 0, "0", null, {}, "５"];

describe.each(["sqlite", "postgres"] as const)("numeric inputs on %s", { timeout: 180_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let cookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [started, admin] = await Promise.all([startConsoleServer(database.url), createTestAccount(database.url, "admin", "Nina")]);
    server = started;
    cookie = await sessionCookie(database.url, admin);
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  const action = (name: string, input: unknown, page: string) => callServerAction(server, name, [input], { cookie, page });
  const saveRule = (input: Record<string, unknown>) =>
    action("saveExpiryRule", { agentId: "refunds", toolName: "", ...input }, "/admin/expiry");
  const stored = async () => {
    const db = await getDb(database.url);
    return { rules: await db.expiryRule.findMany(), settings: await db.agentReviewSetting.findMany() };
  };

  it("saves minutes given as a number or a form's plain digits", async () => {
    expect((await saveRule({ afterMinutes: "30", warnMinutes: "5" })).result).toMatchObject({
      ok: true,
      data: { afterMinutes: 30, warnMinutes: 5 },
    });
    expect((await saveRule({ afterMinutes: 45, warnMinutes: "" })).result).toMatchObject({
      ok: true,
      data: { afterMinutes: 45, warnMinutes: null },
    });
    expect((await saveRule({ afterMinutes: "525600" })).result).toMatchObject({ ok: true, data: { afterMinutes: 525_600 } });
    expect((await saveRule({ afterMinutes: 60, warnMinutes: 10 })).result).toMatchObject({ ok: true });
    expect(await stored()).toMatchObject({ rules: [{ agentId: "refunds", toolName: "", afterMinutes: 60, warnMinutes: 10 }] });
  });

  it("refuses every other afterMinutes with invalid_input naming it, and changes no rule", async () => {
    const before = await stored();
    expect(before.rules).toHaveLength(1);
    for (const afterMinutes of [...NOT_MINUTES, 525_601, "525601", 1e21, "99999999999999999999"]) {
      const { result } = await saveRule({ afterMinutes });
      expect({ afterMinutes, result }).toMatchObject({
        afterMinutes,
        result: {
          ok: false,
          error: { code: "invalid_input", message: expect.stringContaining("(afterMinutes)"), issues: [{ path: "afterMinutes" }] },
        },
      });
    }
    expect(await stored()).toEqual(before);
  });

  it("refuses every other warnMinutes the same way; only a blank field (or null) means no warning", async () => {
    const before = await stored();
    for (const warnMinutes of NOT_MINUTES.filter((value) => value !== "" && value !== null)) {
      const { result } = await saveRule({ afterMinutes: 120, warnMinutes });
      expect({ warnMinutes, result }).toMatchObject({
        warnMinutes,
        result: {
          ok: false,
          error: { code: "invalid_input", message: expect.stringContaining("(warnMinutes)"), issues: [{ path: "warnMinutes" }] },
        },
      });
    }
    expect(await stored()).toEqual(before);
  });

  it("takes a review setting's switch as true or false only", async () => {
    expect((await action("saveReviewSetting", { agentId: "refunds", onlyAssigneeDecides: true }, "/admin/agents")).result).toMatchObject({
      ok: true,
    });
    const before = await stored();
    for (const onlyAssigneeDecides of [0, 1, "true", "false", "on", [true], null]) {
      const { result } = await action("saveReviewSetting", { agentId: "refunds", onlyAssigneeDecides }, "/admin/agents");
      expect({ onlyAssigneeDecides, result }).toMatchObject({
        onlyAssigneeDecides,
        result: { ok: false, error: { code: "invalid_input", message: expect.stringContaining("onlyAssigneeDecides") } },
      });
    }
    expect(await stored()).toEqual(before);
  });

  it("refuses a page or perPage that is not plain digits: 400 naming it from the API and the export, a note on the pages", async () => {
    const get = (path: string) => fetch(`${server.url}${path}`, { headers: { cookie } });
    const cases = [
      ["page", "0x10", "page must be a number"],
      ["page", "1e1", "page must be a number"],
      ["page", "2.0", "page must be a number"],
      ["page", "+2", "page must be a number"],
      ["page", "0", "page starts at 1"],
      ["page", "1000001", "page must be at most 1000000"],
      ["perPage", "0x14", "perPage must be a number"],
      ["perPage", "2e1", "perPage must be a number"],
      ["perPage", "7", "perPage must be one of 10, 20, 50, 100"],
    ] as const;
    for (const [parameter, value, message] of cases) {
      const search = new URLSearchParams({ [parameter]: value });
      for (const path of ["/api/queue", "/api/runs", "/history/export"]) {
        const response = await get(`${path}?${search}`);
        expect({ path, value, status: response.status }).toEqual({ path, value, status: 400 });
        expect(await response.json()).toMatchObject({
          ok: false,
          error: { code: "invalid_input", message, issues: [{ path: parameter }] },
        });
      }
      for (const path of ["/", "/history"]) {
        const response = await get(`${path}?${search}`);
        expect({ path, value, status: response.status }).toEqual({ path, value, status: 200 });
        expect(await response.text()).toContain(`${parameter}=${value} was ignored: ${message}`);
      }
    }
    // Plain digits still page.
    expect(await (await get("/api/queue?page=2&perPage=10")).json()).toMatchObject({ ok: true, data: { page: 2, perPage: 10 } });
  });
});
