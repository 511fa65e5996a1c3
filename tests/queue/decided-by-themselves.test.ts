/**
 * A call the console decides by itself never shows in the review queue, on SQLite and PostgreSQL,
 * with the real demo refunds agent: the agent's follow-up call with a reviewer's suggested
 * arguments (approved as suggested), and a call a rule approves. The queue (getQueuePage, what GET
 * /api/queue and the runs page answer) is read as fast as it can be while the agent calls and the
 * console's loop (claim, then decide, as a server runs it) approves; it must never list that call.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { getQueuePage } from "../../lib/queue/views.ts";
import { decideRuleMatches, prepareRuleMatches } from "../../lib/rules/auto-decide.ts";
import { createRule } from "../../lib/rules/store.ts";
import { ruleInputSchema } from "../../lib/rules/validations.ts";
import { findSuspendedRun } from "../../lib/runs/run-detail.ts";
import { queueQuery } from "../../lib/search-params.ts";
import { suggestInput } from "../../lib/suggestions/inputs.ts";
import { declineWithSuggestion } from "../../lib/suggestions/suggest.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)(
  "calls decided by the console itself never show in the queue on %s",
  { timeout: 120_000 },
  (kind) => {
    const database = useTestDatabase(kind, { asDefault: true });

    const newThread = () => ({ thread: `ticket-${randomUUID()}`, resource: `cust_${randomUUID()}` });
    async function refundOn({ thread, resource }: { thread: string; resource: string }, order: string, amount: string) {
      const mastra = await createConsoleMastra(database.url);
      return runUntilWaiting(mastra.getAgent("refunds"), refundRequest(order, amount), { thread, resource });
    }
    const onePass = async () => {
      await recordWaitingCalls(database.url, prepareRuleMatches);
      await decideRuleMatches(database.url);
    };

    /**
     * Runs `work` while the queue of `thread` is read over and over and the console's loop runs every
     * 100 ms (a server's WEBHOOKS_POLL_MS=100), until `settled` holds; every call the queue listed.
     */
    async function watched(thread: string, work: () => Promise<unknown>, settled: () => Promise<boolean>) {
      let done = false;
      const listed = new Set<string>();
      let reads = 0;
      const reader = (async () => {
        while (!done) {
          const page = await getQueuePage(queueQuery.parse({ threadId: thread }));
          reads++;
          for (const group of page.threads) for (const run of group.runs) for (const call of run.toolCalls) listed.add(call.toolCallId!);
        }
      })();
      const loop = (async () => {
        while (!done) {
          await onePass();
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      try {
        await work();
        await expect.poll(settled, { timeout: 30_000, interval: 50 }).toBe(true);
      } finally {
        done = true;
        await Promise.all([reader, loop]);
      }
      return { listed, reads };
    }

    it("the agent's follow-up call with the suggested arguments", async () => {
      const db = await getDb(database.url);
      const where = newThread();
      const declined = await refundOn(where, "ORD-6101", "80.00 EUR");
      await onePass();
      const asked = (await findSuspendedRun(declined.runId, database.url))!.toolCalls[0]!.args as Record<string, unknown>;
      const approvedAsSuggested = () =>
        db.toolCallDecision.findFirst({ where: { runId: declined.runId, action: "approve", state: "applied" } });

      const { listed, reads } = await watched(
        where.thread,
        () =>
          declineWithSuggestion(
            suggestInput.parse({ runId: declined.runId, toolCallId: declined.toolCallId, args: JSON.stringify({ ...asked, amount: 50 }) }),
            {
              reviewer: "rita@test.example",
              databaseUrl: database.url,
            },
          ),
        async () => Boolean(await approvedAsSuggested()),
      );
      const followUp = (await approvedAsSuggested())!;
      expect(followUp.reviewer).toBe("suggestion by rita@test.example");
      expect(listed.has(declined.toolCallId), `read ${reads} times`).toBe(true); // the reader saw what waited for a person
      expect([...listed]).not.toContain(followUp.toolCallId);
    });

    it("a call a rule approves", async () => {
      const db = await getDb(database.url);
      await createRule(
        db,
        ruleInputSchema.parse({
          name: "small refunds",
          enabled: true,
          agentId: "refunds",
          conditions: [{ path: "amount", op: "<=", value: 50 }],
          effect: "approve",
        }),
        "admin@test.example",
      );
      const where = newThread();
      const forAPerson = await refundOn(where, "ORD-6201", "80.00 EUR");
      let small: { runId: string; toolCallId: string } | undefined;
      const { listed, reads } = await watched(
        where.thread,
        async () => (small = await refundOn(where, "ORD-6202", "20.00 EUR")),
        async () => (await db.toolCallDecision.count({ where: { runId: small?.runId, state: "applied" } })) === 1,
      );
      expect(listed.has(forAPerson.toolCallId), `read ${reads} times`).toBe(true);
      expect([...listed]).not.toContain(small!.toolCallId);
    });
  },
);

it("the docs say so, and name where the queue leaves these calls out", () => {
  const readme = readFileSync("docs/rules.md", "utf8") + readFileSync("docs/trust-and-suggest.md", "utf8");
  expect(readme).toMatch(/that call never shows\s+in the queue/);
  const promise =
    /\*\*Never in the queue\.\*\* A call a rule approves or declines, or that a reviewer's suggestion\s+approves[^]*?\(`([^`]+)`\)/.exec(
      readme,
    );
  expect(promise).not.toBeNull();
  expect(existsSync(promise![1]!)).toBe(true);
});
