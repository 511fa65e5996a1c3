/**
 * GET /api/admin/audit/verify and GET /api/admin/evidence against real console servers on SQLite
 * and PostgreSQL: admins only, hostile parameters refused with nothing written, a tampered row named
 * over HTTP, evidence signed with the server's key (refused without one), CSV with the chain's head.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkEvidenceSignature } from "../../lib/audit/evidence-signature.ts";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

const KEY = "route-test-evidence-key-0123456789abcdef";

describe.each(["sqlite", "postgres"] as const)("audit routes on %s", { timeout: 180_000 }, (kind) => {
  let database: TestDatabase;
  let signed: ConsoleServer;
  let unsigned: ConsoleServer;
  let admin: string;
  let reviewer: string;
  let runId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [a, b, adminAccount, reviewerAccount, run] = await Promise.all([
      startConsoleServer(database.url, { EVIDENCE_SIGNING_KEY: KEY }),
      startConsoleServer(database.url),
      createTestAccount(database.url, "admin"),
      createTestAccount(database.url, "reviewer"),
      suspendDemoRun(database.url, "refunds", refundRequest("ORD-8401")),
    ]);
    [signed, unsigned, runId] = [a, b, run.runId];
    admin = await sessionCookie(database.url, adminAccount);
    reviewer = await sessionCookie(database.url, reviewerAccount);
    await decide({ action: "approve", ...run.ref }, { reviewer: reviewerAccount.email, databaseUrl: database.url, via: "api" });
  }, 180_000);

  afterAll(async () => {
    await Promise.all([signed?.stop(), unsigned?.stop()]);
    await disconnectDb(database.url);
    await database.drop();
  });

  const get = (server: ConsoleServer, path: string, cookie?: string) =>
    fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  const auditRows = async () => (await getDb(database.url)).auditEvent.count();

  it("lets only admins verify the log or export evidence", async () => {
    const before = await auditRows();
    for (const path of ["/api/admin/audit/verify", "/api/admin/evidence", "/api/admin/evidence?format=csv"]) {
      expect((await get(signed, path)).status, path).toBe(401);
      expect((await get(signed, path, reviewer)).status, path).toBe(403);
    }
    expect(await auditRows()).toBe(before);
  });

  it("refuses hostile parameters with 400 and writes nothing", async () => {
    const before = await auditRows();
    for (const query of [
      "checkpointSeq=1",
      "checkpointSeq=1&checkpointHash=zz",
      `checkpointSeq=1%00&checkpointHash=${"a".repeat(64)}`,
      `checkpointSeq=1&checkpointHash=${"a".repeat(64)}&x=${"y".repeat(10_000)}`,
      "unknown=1",
    ]) {
      const response = await get(signed, `/api/admin/audit/verify?${query}`, admin);
      expect({ query: query.slice(0, 60), status: response.status }).toEqual({ query: query.slice(0, 60), status: 400 });
      expect(await response.json()).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    }
    for (const query of ["from=2026-02-30", "from=2026-02-02&to=2026-02-01", "format=xml", "from=%00", "to=%ED%A0%80"]) {
      const response = await get(signed, `/api/admin/evidence?${query}`, admin);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
    }
    expect(await auditRows()).toBe(before);
  });

  it("exports evidence signed with the server's key, as CSV with the chain's head, and refuses JSON without a key", async () => {
    const json = await get(signed, "/api/admin/evidence", admin);
    expect(json.status).toBe(200);
    expect(json.headers.get("content-disposition")).toMatch(
      /attachment; filename="oversight-evidence-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.json"/,
    );
    const text = await json.text();
    expect(checkEvidenceSignature(text, KEY)).toMatchObject({ ok: true });
    const bundle = JSON.parse(text);
    expect(bundle).toMatchObject({ decisionCount: 1, chain: { ok: true }, decisions: [{ runId, via: "api", argsDigestFrom: "read" }] });

    const csv = await get(unsigned, "/api/admin/evidence?format=csv", admin);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("x-audit-chain")).toBe(`ok; seq=${bundle.chain.head.seq}; hash=${bundle.chain.head.hash}`);
    expect((await csv.text()).split("\r\n").filter(Boolean)).toHaveLength(2);

    const refused = await get(unsigned, "/api/admin/evidence", admin);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ ok: false, error: { code: "evidence_not_configured" } });
  });

  it("names a tampered row over HTTP, and holds against a checkpoint taken before", async () => {
    const verified = await (await get(signed, "/api/admin/audit/verify", admin)).json();
    expect(verified).toMatchObject({ ok: true, data: { ok: true, problem: null } });
    const { seq, hash } = verified.data.head;
    const atCheckpoint = await (await get(signed, `/api/admin/audit/verify?checkpointSeq=${seq}&checkpointHash=${hash}`, admin)).json();
    expect(atCheckpoint).toMatchObject({ ok: true, data: { ok: true } });

    const db = await getDb(database.url);
    const row = await db.auditEvent.findFirstOrThrow({ where: { runId, outcome: "recorded" } });
    await db.$executeRawUnsafe(`UPDATE audit_events SET reviewer = 'mallory@test.example' WHERE id = ${row.id}`);
    const broken = await (await get(signed, "/api/admin/audit/verify", admin)).json();
    expect(broken).toMatchObject({ ok: true, data: { ok: false, problem: { kind: "changed", id: row.id, seq: row.chainSeq } } });
    const csv = await get(signed, "/api/admin/evidence?format=csv", admin);
    expect(csv.headers.get("x-audit-chain")).toMatch(/^broken \(changed\); seq=/);
  });
});
