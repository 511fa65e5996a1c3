/**
 * The insights count every shape of run the queue shows, on SQLite and PostgreSQL: a call of a
 * second agent, a run without memory (no thread, no resource), a supervisor's delegated call (counted
 * under the tool that waits, not the supervisor's `agent-…` tool) and a workflow's step resumed with
 * data. Each is claimed and decided as the console does; the figures are compared with the
 * decisions table read here.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { readInsights } from "../../lib/insights/insights.ts";
import { recordReviewTargets } from "../../lib/insights/record.ts";
import { insightsQuery } from "../../lib/insights/validations.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { delegated, requests } from "../../lib/mastra/demo/requests.ts";
import { runUntilWaiting, startUntilSuspended, type WaitingCall } from "../../lib/mastra/demo/run-until-waiting.ts";
import { useTestDatabase } from "../helpers/databases.ts";

describe.each(["sqlite", "postgres"] as const)("insights over every run shape on %s", { timeout: 240_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  it("counts a second agent, a run without memory, a delegated call and a workflow step under the agent and tool that waited", async () => {
    const db = await getDb(database.url);
    await recordReviewTargets(db);
    const mastra = await createConsoleMastra(database.url);
    const resource = `cust_shapes_${randomUUID().slice(0, 8)}`;
    const onThread = { thread: `t-${randomUUID()}`, resource };
    const email = requests.email();
    const delegatedRefund = delegated(requests.refund({ amount: "13.00" }));
    const calls: Record<string, WaitingCall> = {
      secondAgent: await runUntilWaiting(mastra.getAgent(email.agent), email.text, onThread),
      noMemory: await runUntilWaiting(mastra.getAgent("refunds"), requests.refund({ amount: "17.00" }).text, undefined),
      delegated: await runUntilWaiting(mastra.getAgent(delegatedRefund.agent), delegatedRefund.text, {
        thread: `t-${randomUUID()}`,
        resource,
      }),
      workflowStep: await startUntilSuspended(
        mastra.getWorkflow("refundApproval") as never,
        { orderId: "ORD-WF", customerEmail: "wf@customer.example", amount: 860, currency: "EUR", reason: "parcel never arrived" },
        { resource, databaseUrl: database.url },
      ),
    };
    // The supervisor's sub-agent run is not a call of its own: four calls wait, not five.
    expect(await recordWaitingCalls(database.url)).toBe(4);

    const options = { reviewer: "dana@example.com", databaseUrl: database.url, asAssignee: false };
    await decide({ action: "approve", ...ref(calls.secondAgent!) }, options);
    await decide({ action: "decline", reason: "no order number", ...ref(calls.noMemory!) }, options);
    await decide({ action: "approve", ...ref(calls.delegated!) }, options);
    await decide({ action: "resume", resumeData: { approved: true, note: "ok" }, ...ref(calls.workflowStep!) }, options);

    // Independently: what the decisions table says was carried out, agent by agent and tool by tool.
    const decisions = await db.toolCallDecision.findMany({
      where: { runId: { in: Object.values(calls).map((call) => call.runId) } },
    });
    expect(decisions.map((decision) => decision.state)).toEqual(["applied", "applied", "applied", "applied"]);
    const insights = await readInsights(insightsQuery.parse({ period: "7" }), { timeZone: "UTC", seesNames: true }, { db });
    expect(insights.waited).toBe(4);
    expect(insights.outcomes.decided).toBe(4);
    expect(insights.outcomes.by.person).toBe(4);
    for (const decision of decisions) {
      const row = insights.byTool.find((candidate) => candidate.agentId === decision.agentId && candidate.toolName === decision.toolName);
      expect(row, `${decision.agentId} / ${decision.toolName}`).toBeDefined();
      expect(row!.decided).toBe(1);
    }
    // The delegated call counts under the sub-agent's tool that waited, never the supervisor's `agent-…` tool.
    const delegatedDecision = decisions.find((decision) => decision.runId === calls.delegated!.runId)!;
    expect(delegatedDecision.toolName).toBe("issueRefund");
    expect(insights.byTool.some((row) => row.toolName.startsWith("agent-"))).toBe(false);
    expect(new Set(insights.byAgent.map((row) => row.agentId))).toEqual(new Set(decisions.map((decision) => decision.agentId)));
    expect(insights.reviewers).toEqual([expect.objectContaining({ reviewer: "dana@example.com", decisions: 4 })]);

    // A resource prefix covers the three calls made for the resource, not the run without memory.
    const forResource = await readInsights(
      insightsQuery.parse({ period: "7", resourcePrefix: resource }),
      { timeZone: "UTC", seesNames: true },
      { db },
    );
    expect(forResource.waited).toBe(3);
    expect(forResource.outcomes.decided).toBe(3);
    expect(forResource.outcomes.declined).toBe(0);
  });
});

function ref(call: WaitingCall) {
  return { runId: call.runId, toolCallId: call.toolCallId };
}
