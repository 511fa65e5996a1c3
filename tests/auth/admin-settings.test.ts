/**
 * The console's own rules are admins' alone, checked on the server over HTTP whatever the browser
 * sends: expiry rules (app/admin/expiry) through their server actions, against a real console server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { callServerAction, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

describe("admin settings over HTTP", () => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let reviewerCookie: string;
  let adminCookie: string;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startConsoleServer(database.url);
    [reviewerCookie, adminCookie] = await Promise.all([
      createTestAccount(database.url, "reviewer", "Rita").then((account) => sessionCookie(database.url, account)),
      createTestAccount(database.url, "admin", "Ada").then((account) => sessionCookie(database.url, account)),
    ]);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  const get = (path: string, cookie: string) => fetch(`${server.url}${path}`, { redirect: "manual", headers: { cookie } });

  it("lets only admins change expiry rules, checked on the server", async () => {
    const page = await get("/admin/expiry", reviewerCookie);
    expect(await page.text()).toContain("You cannot open this page");
    const rule = { agentId: "refunds", toolName: "", afterMinutes: 5 };
    const refused = await callServerAction(server, "saveExpiryRule", [rule], { cookie: reviewerCookie, page: "/admin/expiry" });
    expect(refused.result).toMatchObject({ ok: false, error: { code: "forbidden" } });
    const db = await getDb(database.url);
    expect(await db.expiryRule.count()).toBe(0);

    const invalid = await callServerAction(server, "saveExpiryRule", [{ ...rule, afterMinutes: 0, toolName: "x\u0000y" }], {
      cookie: adminCookie,
      page: "/admin/expiry",
    });
    expect(invalid.result).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    const unknown = await callServerAction(server, "saveExpiryRule", [{ ...rule, agentId: "no-such-agent" }], {
      cookie: adminCookie,
      page: "/admin/expiry",
    });
    expect(unknown.result).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("no-such-agent") },
    });
    expect(await db.expiryRule.count()).toBe(0);

    const saved = await callServerAction(server, "saveExpiryRule", [rule], { cookie: adminCookie, page: "/admin/expiry" });
    expect(saved.result).toMatchObject({ ok: true, data: rule });
    const removed = await callServerAction(server, "deleteExpiryRule", [{ agentId: "refunds", toolName: "" }], {
      cookie: adminCookie,
      page: "/admin/expiry",
    });
    expect(removed.result).toMatchObject({ ok: true });
    expect(await db.expiryRule.count()).toBe(0);
  });

  it("checks an expiry rule's mode and warning time on the server: a bad one changes nothing", async () => {
    const rule = { agentId: "refunds", toolName: "issueRefund", afterMinutes: 30 };
    const save = (input: Record<string, unknown>) =>
      callServerAction(server, "saveExpiryRule", [input], { cookie: adminCookie, page: "/admin/expiry" });
    expect((await save(rule)).result).toMatchObject({ ok: true, data: { ...rule, mode: "decline", warnMinutes: null } });
    const db = await getDb(database.url);
    const before = await db.expiryRule.findMany();

    expect((await save({ ...rule, mode: "ignore" })).result).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining('Mode must be "decline" or "mark"') },
    });
    for (const warnMinutes of [30, 45]) {
      expect((await save({ ...rule, mode: "mark", warnMinutes })).result).toMatchObject({
        ok: false,
        error: { code: "invalid_input", message: expect.stringContaining("The warning must come before the expiry") },
      });
    }
    expect((await save({ ...rule, warnMinutes: 0 })).result).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(await db.expiryRule.findMany()).toEqual(before);

    // The form's blank warning field means none; a valid one is kept with the mode.
    expect((await save({ ...rule, mode: "mark", warnMinutes: "" })).result).toMatchObject({
      ok: true,
      data: { mode: "mark", warnMinutes: null },
    });
    expect((await save({ ...rule, mode: "mark", warnMinutes: "10" })).result).toMatchObject({
      ok: true,
      data: { mode: "mark", warnMinutes: 10 },
    });
    expect(await db.expiryRule.findMany()).toMatchObject([{ ...rule, mode: "mark", warnMinutes: 10 }]);
  });
});
