/**
 * The audit chain on /history against a real console server on SQLite and PostgreSQL: an admin's
 * page shows the chain's head (place and hash) and a "Verify now" button; the button's server action
 * (verifyAuditChain, the walk GET /api/admin/audit/verify makes) says the chain holds, then names the
 * first problem row once a row was changed behind the console's back. A reviewer gets neither.
 * (The button's rendering of the answer is in e2e/46-evidence.spec.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { callServerAction, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { rowAt, withoutChainTrigger, writeRows } from "./chain-helpers.ts";

describe.each(["sqlite", "postgres"] as const)("Verify now on /history (%s)", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind);
  let server: ConsoleServer;
  let admin: string;
  let reviewer: string;

  beforeAll(async () => {
    const [started, adminAccount, reviewerAccount] = await Promise.all([
      startConsoleServer(database.url),
      createTestAccount(database.url, "admin"),
      createTestAccount(database.url, "reviewer"),
    ]);
    server = started;
    [admin, reviewer] = [await sessionCookie(database.url, adminAccount), await sessionCookie(database.url, reviewerAccount)];
    await writeRows(await getDb(database.url), 5);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  const page = async (cookie: string) => (await fetch(`${server.url}/history`, { headers: { cookie }, redirect: "manual" })).text();

  it("shows an admin the chain's head and the button, and a reviewer neither", async () => {
    const head = await (await getDb(database.url)).auditChain.findUniqueOrThrow({ where: { id: 1 } });
    expect(head.seq).toBe(5);
    const html = await page(admin);
    expect(html).toContain('data-testid="audit-chain"');
    expect(html).toContain(head.hash);
    expect(html).toContain("Verify now");
    const theirs = await page(reviewer);
    expect(theirs).not.toContain('data-testid="audit-chain"');
    expect(theirs).not.toContain(head.hash);
  });

  it("verifies the whole chain on demand, then names a changed row", async () => {
    const verified = await callServerAction(server, "verifyAuditChain", [{}], { cookie: admin });
    expect(verified.result).toMatchObject({ ok: true, data: { ok: true, rows: 5, problem: null, head: { seq: 5 } } });

    const db = await getDb(database.url);
    const third = await rowAt(db, 3);
    await withoutChainTrigger(db, kind, async () => {
      await db.auditEvent.update({ where: { id: third.id }, data: { reviewer: "Mallory" } });
    });
    const broken = await callServerAction(server, "verifyAuditChain", [{}], { cookie: admin });
    expect(broken.result).toMatchObject({ ok: true, data: { ok: false, problem: { kind: "changed", id: third.id, seq: 3 } } });
  });

  it("refuses a reviewer, and a malformed checkpoint, writing nothing", async () => {
    const rows = await (await getDb(database.url)).auditEvent.count();
    const refused = await callServerAction(server, "verifyAuditChain", [{}], { cookie: reviewer });
    expect(refused.result).toMatchObject({ ok: false, error: { code: "forbidden" } });
    const malformed = await callServerAction(server, "verifyAuditChain", [{ checkpointSeq: 1, checkpointHash: "xyz" }], { cookie: admin });
    expect(malformed.result).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(await (await getDb(database.url)).auditEvent.count()).toBe(rows);
  });
});
