/**
 * The decision history: filters, paging and the CSV export over real decisions made through the
 * decision module with real agents. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { listHistory } from "../../lib/audit/history.ts";
import { appendAudit } from "../../lib/audit/log.ts";
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

  const rows = (filters: Record<string, string>) => listHistory(auditQuery.parse(filters), database.url);
  const shape = (entries: Awaited<ReturnType<typeof rows>>["entries"]) =>
    entries.map((entry) => [entry.kind, entry.head.reviewer, entry.head.action, entry.timeline.map((event) => event.outcome).join(" → ")]);

  it("shows one row per decision with its states as a timeline, and the conflict as its own row", async () => {
    const { entries, total, pageCount } = await rows({});
    expect(total).toBe(3);
    expect(pageCount).toBe(1);
    expect(shape(entries)).toEqual([
      ["decision", "Grace", "resume", "recorded → applied"],
      ["attempt", "Grace", "decline", "conflict"],
      ["decision", "Ada", "approve", "recorded → applied"],
    ]);
    expect(entries.map((entry) => [entry.agentId, entry.toolName])).toEqual([
      ["shipping", "chooseShippingAddress"],
      ["refunds", "issueRefund"],
      ["refunds", "issueRefund"],
    ]);
    // The conflict names the decision it lost to, but is not one of its steps.
    expect(entries[1]!.head.decisionId).toBe(entries[2]!.head.decisionId);
  });

  it("pages and filters rows, not events", async () => {
    // One row a page (not a size the URL offers): the second page is the conflict, and there are three.
    const second = await listHistory({ ...auditQuery.parse({}), perPage: 1, page: 2 }, database.url);
    expect(shape(second.entries)).toEqual([["attempt", "Grace", "decline", "conflict"]]);
    expect(second.pageCount).toBe(3);
    const applied = await rows({ outcome: "applied" });
    expect(applied.total).toBe(2);
    expect(shape(applied.entries)).toEqual([
      ["decision", "Grace", "resume", "recorded → applied"],
      ["decision", "Ada", "approve", "recorded → applied"],
    ]);
    expect(shape((await rows({ reviewer: "Ada" })).entries)).toEqual([["decision", "Ada", "approve", "recorded → applied"]]);
    expect(shape((await rows({ outcome: "conflict" })).entries)).toEqual([["attempt", "Grace", "decline", "conflict"]]);
    expect((await rows({ agentId: "refunds" })).total).toBe(2);
    expect((await rows({ to: "2020-01-01" })).entries).toEqual([]);
  });

  it("splits a call decided again after a release into two rows, and names the call of an old refusal", async () => {
    const db = await getDb(database.url);
    const call = { runId: "run-history-takeover", toolCallId: "call-1", agentId: "refunds", toolName: "issueRefund", resourceId: "cust-h" };
    const at = (second: number) => new Date(Date.UTC(2021, 0, 1, 0, 0, second));
    const decision = { ...call, action: "approve", decisionId: "dec-takeover" };
    onTestFinished(() => db.auditEvent.deleteMany({ where: { runId: call.runId } }).then(() => undefined));
    await appendAudit(db, { ...decision, reviewer: "Ada", outcome: "recorded" }, at(1));
    await appendAudit(db, { ...decision, reviewer: "Ada", outcome: "interrupted" }, at(2));
    // Written before refusals looked their call up: no agent, no tool.
    await appendAudit(
      db,
      { reviewer: "Lin", action: "approve", outcome: "refused", code: "invalid_input", runId: call.runId, toolCallId: call.toolCallId },
      at(3),
    );
    await appendAudit(db, { ...decision, reviewer: "Grace", outcome: "recorded", message: "Decided again" }, at(4));
    await appendAudit(db, { ...decision, reviewer: "Grace", outcome: "applied", answer: "done" }, at(5));

    const { entries } = await rows({ to: "2021-01-02" });
    expect(shape(entries)).toEqual([
      ["decision", "Grace", "approve", "recorded → applied"],
      ["attempt", "Lin", "approve", "refused"],
      ["decision", "Ada", "approve", "recorded → interrupted"],
    ]);
    expect(entries[1]).toMatchObject({ head: { agentId: null, toolName: null }, agentId: "refunds", toolName: "issueRefund" });
    // Filtered by a later state, a row still shows its decision's whole story (and only that decision's).
    expect(shape((await rows({ to: "2021-01-02", outcome: "interrupted" })).entries)).toEqual([
      ["decision", "Ada", "approve", "recorded → interrupted"],
    ]);
    // The CSV stays one line per event.
    let csv = "";
    for await (const chunk of auditCsv(auditQuery.parse({ to: "2021-01-02" }), database.url)) csv += chunk;
    expect(csv.trimEnd().split("\r\n")).toHaveLength(1 + 5);
  });

  it("exports the filtered history as CSV that spreadsheets cannot turn into formulas", async () => {
    let csv = "";
    for await (const chunk of auditCsv(auditQuery.parse({ reviewer: "Grace" }), database.url)) csv += chunk;
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "at,reviewer,action,outcome,code,runId,toolCallId,agentId,threadId,resourceId,toolName,args,resumeData,reason,answer,message,decisionId,batchId,assignee,via,authMethod,tokenId,tokenName",
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
