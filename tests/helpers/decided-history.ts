/**
 * Past decisions made through the product's own code, for the tests of backtests and suggested
 * rules: the demo refunds agent runs until its issueRefund call waits (Mastra, on the test
 * database), the console's events loop claims it (its call_reviews row with when it started waiting,
 * `call.waiting` in the outbox, and the rules' match when any rule exists), then a person decides it
 * with `decide`, as the JSON API would.
 */
import { randomUUID } from "node:crypto";
import { decide } from "../../lib/decisions/decide.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { requests } from "../../lib/mastra/demo/requests.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { decideRuleMatches, prepareRuleMatches } from "../../lib/rules/auto-decide.ts";

export interface PastRefund {
  /** The customer the refund is for: the run's resource. */
  resource: string;
  amount: number;
  currency?: string;
  /** What a person decided, with their reason; "wait" leaves it waiting (a rule may decide it). */
  decision: { action: "approve"; reviewer: string } | { action: "decline"; reviewer: string; reason: string } | { action: "wait" };
}

export interface DecidedRefund extends PastRefund {
  runId: string;
  toolCallId: string;
}

/**
 * Each refund in turn: suspended on a thread of its own under its resource, claimed by the events
 * loop (with the rules, as the console claims every newly waiting call), then decided as asked.
 */
export async function decideRefunds(databaseUrl: string, refunds: PastRefund[]): Promise<DecidedRefund[]> {
  const mastra = await createConsoleMastra(databaseUrl);
  const decided: DecidedRefund[] = [];
  for (const refund of refunds) {
    const text = requests.refund({
      order: `ORD-${randomUUID().slice(0, 8)}`,
      email: "history@customer.example",
      amount: refund.amount.toFixed(2),
      currency: refund.currency ?? "EUR",
      reason: "parcel arrived damaged",
    }).text;
    const waiting = await runUntilWaiting(mastra.getAgent("refunds"), text, {
      thread: `ticket-${randomUUID()}`,
      resource: refund.resource,
    });
    await recordWaitingCalls(databaseUrl, prepareRuleMatches);
    await decideRuleMatches(databaseUrl);
    const ref = { runId: waiting.runId, toolCallId: waiting.toolCallId };
    if (refund.decision.action === "approve")
      await decide({ action: "approve", ...ref }, { reviewer: refund.decision.reviewer, databaseUrl, via: "api" });
    if (refund.decision.action === "decline") {
      await decide(
        { action: "decline", reason: refund.decision.reason, ...ref },
        { reviewer: refund.decision.reviewer, databaseUrl, via: "api" },
      );
    }
    decided.push({ ...refund, ...ref });
  }
  return decided;
}
