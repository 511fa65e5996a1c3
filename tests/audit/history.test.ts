/**
 * The decision history: filters, paging and the CSV export over real decisions made through the
 * decision module with real agents. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditCsv, csvField, listAuditEvents } from "../../lib/audit/queries.ts";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { auditQuery } from "../../lib/search-params.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, shippingRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("decision history on %s", (kind) => {
  let database: TestDatabase;
  let refund: DemoRun;
  let shipping: DemoRun;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    refund = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7001"));
    shipping = await suspendDemoRun(database.url, "shipping", shippingRequest("ORD-7002"));
    await decide({ action: "approve", ...refund.ref }, { reviewer: "Ada", databaseUrl: database.url });
    await decide({ action: "decline", ...refund.ref }, { reviewer: "Grace", databaseUrl: database.url }).catch(() => undefined);
    await decide(
      { action: "resume", ...shipping.ref, resumeData: { addressId: "addr_home", note: '=HYPERLINK("http://evil")' } },
      { reviewer: "Grace", databaseUrl: database.url },
    );
  }, 120_000);

  afterAll(async () => {
    await disconnectDb(database.url);
    await database.drop();
  });

  const list = (filters: Record<string, string>) => listAuditEvents(auditQuery.parse(filters), database.url);

  it("keeps decisions after their runs' snapshots are gone", async () => {
    const db = await getDb(database.url);
    expect(await db.workflowSnapshot.count({ where: { runId: { in: [refund.runId, shipping.runId] } } })).toBe(0);
    const { events, total } = await list({});
    expect(total).toBe(5);
    expect(events.map((e) => [e.reviewer, e.action, e.outcome])).toEqual([
      ["Grace", "resume", "applied"],
      ["Grace", "resume", "recorded"],
      ["Grace", "decline", "conflict"],
      ["Ada", "approve", "applied"],
      ["Ada", "approve", "recorded"],
    ]);
  });

  it("filters by reviewer, resource, agent, outcome and date", async () => {
    expect((await list({ reviewer: "Ada" })).total).toBe(2);
    expect((await list({ resourceId: shipping.resource })).events.every((e) => e.runId === shipping.runId)).toBe(true);
    expect((await list({ agentId: "refunds" })).total).toBe(3);
    expect((await list({ outcome: "conflict" })).events.map((e) => e.reviewer)).toEqual(["Grace"]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list({ from: today, to: today })).total).toBe(5);
    expect((await list({ to: "2020-01-01" })).total).toBe(0);
    expect((await list({ perPage: "10", page: "2" })).events).toHaveLength(0);
    expect(() => auditQuery.parse({ outcome: "exploded" })).toThrow(/Outcome must be one of/);
  });

  it("exports the filtered history as CSV that spreadsheets cannot turn into formulas", async () => {
    let csv = "";
    for await (const chunk of auditCsv(auditQuery.parse({ reviewer: "Grace" }), database.url)) csv += chunk;
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "at,reviewer,action,outcome,code,runId,toolCallId,agentId,threadId,resourceId,toolName,args,resumeData,reason,answer,message,decisionId,batchId",
    );
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).map((line) => line.split(",")[3])).toEqual(["conflict", "recorded", "applied"]);
    expect(csv).toContain('""note"":""=HYPERLINK(\\""http://evil\\"")""');
    expect(csvField("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvField("+1")).toBe("'+1");
    expect(csvField('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvField(null)).toBe("");
  });
});
