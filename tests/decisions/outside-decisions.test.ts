/**
 * Calls decided without the console (Mastra Studio, the team's own code: here, the agent's own
 * approveToolCall / declineToolCall in another Mastra instance) on SQLite and PostgreSQL: the call
 * leaves the queue, the history records it once as "decided outside the console", the console's own
 * decisions never show up that way, and a console decision that comes too late is told what happened.
 * A call marked expired (expiry mode "mark") and then decided elsewhere is recorded after its expiry.
 */
import { describe, expect, it } from "vitest";
import { listHistory } from "../../lib/audit/history.ts";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { expireOverdueCalls } from "../../lib/decisions/expire.ts";
import { OUTSIDE_REVIEWER, recordOutsideDecisions } from "../../lib/decisions/outside.ts";
import { readAnswer, runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { delegated, requests } from "../../lib/mastra/demo/requests.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { auditQuery } from "../../lib/search-params.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";
import { minutesFromNow, replaceExpiryRules } from "../helpers/expiry-rules.ts";

describe.each(["sqlite", "postgres"] as const)("decisions made outside the console on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  /** The history's entries for one customer (one run here), as the history page reads them. */
  async function historyOf(resourceId: string) {
    const { entries } = await listHistory(auditQuery.parse({ resourceId }), database.url);
    return entries.map((entry) => ({
      kind: entry.kind,
      outcome: entry.head.outcome,
      reviewer: entry.head.reviewer,
      toolName: entry.toolName,
    }));
  }

  it("records a call approved through the agent itself, once, and takes it out of the queue", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7001"));
    const outside = await createConsoleMastra(database.url);
    await readAnswer(await outside.getAgent("refunds").approveToolCall(run.ref));

    expect((await listSuspendedRuns({ resourceId: run.resource }, database.url)).total).toBe(0);
    expect(await recordOutsideDecisions(database.url)).toBe(1);
    expect(await recordOutsideDecisions(database.url)).toBe(0);

    const db = await getDb(database.url);
    const [event] = await db.auditEvent.findMany({ where: { runId: run.runId, outcome: "decided-outside" } });
    expect(event).toMatchObject({
      reviewer: OUTSIDE_REVIEWER,
      toolCallId: run.ref.toolCallId,
      agentId: "refunds",
      threadId: run.thread,
      resourceId: run.resource,
      toolName: "issueRefund",
    });
    expect(event!.message).toMatch(/No decision in this console: the run (ended|moved on)/);
    expect(await historyOf(run.resource)).toEqual([
      { kind: "attempt", outcome: "decided-outside", reviewer: OUTSIDE_REVIEWER, toolName: "issueRefund" },
    ]);
  });

  it("records a decline made elsewhere the same way", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7002"));
    const outside = await createConsoleMastra(database.url);
    await readAnswer(await outside.getAgent("refunds").declineToolCall({ ...run.ref, reason: "not in the console" }));
    expect(await recordOutsideDecisions(database.url)).toBe(1);
    expect((await historyOf(run.resource)).map((entry) => entry.outcome)).toEqual(["decided-outside"]);
  });

  it("records only the call decided elsewhere when its run goes on to wait on the next one", async () => {
    const orders = [
      { order: "ORD-7101", amount: "12.00", currency: "EUR" },
      { order: "ORD-7102", amount: "30.00", currency: "EUR" },
    ];
    const run = await suspendDemoRun(database.url, "refunds", requests.severalRefunds({ orders }).text);
    const outside = await createConsoleMastra(database.url);
    await readAnswer(await outside.getAgent("refunds").approveToolCall(run.ref));

    const [next] = (await listSuspendedRuns({ resourceId: run.resource }, database.url)).runs.flatMap((listed) => listed.toolCalls);
    expect(next?.toolCallId).not.toBe(run.ref.toolCallId);
    expect(await recordOutsideDecisions(database.url)).toBe(1);
    await decide(
      { action: "approve", runId: run.runId, toolCallId: next!.toolCallId! },
      { reviewer: "rita@test.example", databaseUrl: database.url },
    );
    expect(await recordOutsideDecisions(database.url)).toBe(0);
    const db = await getDb(database.url);
    const outsideEvents = await db.auditEvent.findMany({ where: { runId: run.runId, outcome: "decided-outside" } });
    expect(outsideEvents.map((event) => event.toolCallId)).toEqual([run.ref.toolCallId]);
  });

  it("never reports the console's own decisions as outside ones, a supervisor's delegated call included", async () => {
    const plain = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7003"));
    const mastra = await createConsoleMastra(database.url);
    const thread = `ticket-${crypto.randomUUID()}`;
    const resource = `cust_${crypto.randomUUID()}`;
    const delegatedCall = await runUntilWaiting(
      mastra.getAgent("supportDesk"),
      delegated(
        requests.refund({
          order: "ORD-7004",
          email: "a@b.example",
          amount: "10.00",
          currency: "EUR",
          reason: "damaged",
        }),
      ).text,
      { thread, resource },
    );

    await decide({ action: "approve", ...plain.ref }, { reviewer: "rita@test.example", databaseUrl: database.url });
    await decide(
      { action: "approve", runId: delegatedCall.runId, toolCallId: delegatedCall.toolCallId },
      { reviewer: "rita@test.example", databaseUrl: database.url },
    );

    expect(await recordOutsideDecisions(database.url)).toBe(0);
    const db = await getDb(database.url);
    expect(await db.departedToolCall.count()).toBe(0);
    expect(await db.auditEvent.count({ where: { outcome: "decided-outside" } })).toBe(3); // the three tests above
  });

  it("tells a reviewer who decides too late that the call was decided outside the console, and when", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7005"));
    const outside = await createConsoleMastra(database.url);
    await readAnswer(await outside.getAgent("refunds").approveToolCall(run.ref));

    // Before the departure is read into the history, and after.
    for (const round of [1, 2]) {
      await expect(
        decide({ action: "approve", ...run.ref }, { reviewer: "late@test.example", databaseUrl: database.url }),
      ).rejects.toMatchObject({
        code: "decided_outside",
        message: expect.stringMatching(/decided outside the console at \d{4}-\d\d-\d\dT/),
      });
      if (round === 1) expect(await recordOutsideDecisions(database.url)).toBe(1);
    }
    const db = await getDb(database.url);
    expect(await db.toolEffect.count({ where: { toolCallId: run.ref.toolCallId } })).toBe(1);
  });

  it("records a call marked expired and then approved through the agent, after its expiry; a late reviewer hears both", async () => {
    await replaceExpiryRules(database.url, [{ agentId: "refunds", afterMinutes: 30, mode: "mark" }]);
    try {
      const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-7006"));
      expect(await expireOverdueCalls(database.url, minutesFromNow(31))).toBe(1);
      const db = await getDb(database.url);
      const expiry = await db.toolCallDecision.findUniqueOrThrow({ where: { runId_toolCallId: run.ref } });
      expect(expiry).toMatchObject({ action: "expire", expiryMode: "mark", state: "applied" });

      // Marking told the agent nothing, so nothing stops the team's own code from approving it now.
      const outside = await createConsoleMastra(database.url);
      await readAnswer(await outside.getAgent("refunds").approveToolCall(run.ref));
      expect(await db.toolEffect.count({ where: { toolCallId: run.ref.toolCallId } })).toBe(1);
      expect(await recordOutsideDecisions(database.url)).toBe(1);
      expect(await recordOutsideDecisions(database.url)).toBe(0);

      // Newest first: the outside decision, then the expiry it came after.
      const { entries } = await listHistory(auditQuery.parse({ resourceId: run.resource }), database.url);
      expect(entries.map((entry) => [entry.kind, entry.head.reviewer, entry.timeline.map((event) => event.outcome)])).toEqual([
        ["attempt", OUTSIDE_REVIEWER, ["decided-outside"]],
        ["decision", "the expiry rule", ["recorded", "expired"]],
      ]);
      const recorded = entries[0]!.head;
      expect(recorded.at.getTime()).toBeGreaterThan(expiry.decidedAt.getTime());
      expect(recorded.message).toMatch(
        new RegExp(`^Marked expired at ${expiry.decidedAt.toISOString()} \\(expiry mode: mark\\), then the run (ended|moved on)`),
      );

      await expect(
        decide({ action: "approve", ...run.ref }, { reviewer: "late@test.example", databaseUrl: database.url }),
      ).rejects.toMatchObject({
        code: "decided_outside",
        message: expect.stringMatching(/^This call was marked expired at .*, and decided outside the console at \d{4}-/),
      });
      expect(await db.toolEffect.count({ where: { toolCallId: run.ref.toolCallId } })).toBe(1);
    } finally {
      await replaceExpiryRules(database.url, []);
    }
  });
});
