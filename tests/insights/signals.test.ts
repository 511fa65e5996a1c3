/**
 * The rubber-stamp signals count what they say, on SQLite and PostgreSQL, with real refunds-agent
 * calls: a reviewer's approvals that continue a run of identical approvals (same agent and tool)
 * of STREAK_LENGTH count from the STREAK_LENGTH-th on, and a decline ends the run; an approval
 * made within QUICK_APPROVAL_SECONDS of opening the call, its context never opened, is quick; one
 * whose context was opened is not.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { readInsights, STREAK_LENGTH } from "../../lib/insights/insights.ts";
import { recordCallView, recordReviewTargets } from "../../lib/insights/record.ts";
import { insightsQuery } from "../../lib/insights/validations.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("rubber-stamp signals on %s", { timeout: 240_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  it("counts runs of identical approvals and approvals made seconds after opening, context unopened", async () => {
    const db = await getDb(database.url);
    await recordReviewTargets(db);
    const mastra = await createConsoleMastra(database.url);
    const waitingCall = async (index: number) => {
      const { runId, toolCallId } = await runUntilWaiting(mastra.getAgent("refunds"), refundRequest(`ORD-${index}`, "5.00 EUR"), {
        thread: `t-${randomUUID()}`,
        resource: `cust_${index}`,
      });
      return { runId, toolCallId };
    };
    const streaker = "streak@example.com";
    const quick = "quick@example.com";
    const careful = "careful@example.com";
    // streaker: STREAK_LENGTH + 1 approvals, a decline, then STREAK_LENGTH - 1 approvals (a new run, never long enough).
    const steps: { reviewer: string; action: "approve" | "decline"; view?: "opened" | "context" }[] = [
      ...Array.from({ length: STREAK_LENGTH + 1 }, () => ({ reviewer: streaker, action: "approve" as const })),
      { reviewer: streaker, action: "decline" },
      ...Array.from({ length: STREAK_LENGTH - 1 }, () => ({ reviewer: streaker, action: "approve" as const })),
      { reviewer: quick, action: "approve", view: "opened" },
      { reviewer: quick, action: "approve" },
      { reviewer: careful, action: "approve", view: "context" },
    ];
    const calls = [];
    for (const [index] of steps.entries()) calls.push(await waitingCall(index));
    await recordWaitingCalls(database.url);
    for (const [index, step] of steps.entries()) {
      const call = calls[index]!;
      if (step.view) await recordCallView(db, { ...call, reviewer: step.reviewer, context: step.view === "context" });
      await decide(step.action === "approve" ? { action: "approve", ...call } : { action: "decline", reason: "no", ...call }, {
        reviewer: step.reviewer,
        databaseUrl: database.url,
        asAssignee: false,
      });
    }

    const insights = await readInsights(insightsQuery.parse({ period: "7" }), { timeZone: "UTC", seesNames: true }, { db });
    const row = (reviewer: string) => insights.reviewers.find((candidate) => candidate.reviewer === reviewer)!;
    expect(row(streaker).decisions).toBe(2 * STREAK_LENGTH + 1);
    expect(row(streaker).streakApprovals).toBe(2);
    expect(row(streaker).quickApprovals).toBe(0);
    // Opened and approved within seconds, no context: quick. Approved without opening at all: not quick, but without context.
    expect(row(quick).quickApprovals).toBe(1);
    expect(row(quick).withoutContext).toBe(2);
    expect(row(careful).quickApprovals).toBe(0);
    expect(row(careful).withoutContext).toBe(0);
    expect(insights.signalsCounted).toBe(true);
  });
});
