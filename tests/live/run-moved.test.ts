/**
 * What a run's page reads when its live stream says the run moved (components/run-detail/run-live.tsx):
 * first readRun (the calls the run waits on now), then readCallDecisions. Real demo agents on both
 * databases. Continued outside the console (the agent's own approveToolCall in another Mastra
 * instance), the feed says the run left and neither read names a decision of the console's: the page
 * says the call no longer waits. One of two parallel calls continued outside: the feed says only that
 * the run waits on the other, which readRun now names: the page reads itself again. Those reads count
 * no opening for the insights: nobody opened anything. Decided in the console: the decision
 * is in the feed before the run leaves, so a page that reads the run first finds the decision after.
 */
import { describe, expect, it } from "vitest";
import { readCallDecisions } from "../../lib/actions/read-call-decisions.ts";
import { readRun } from "../../lib/actions/read-run.ts";
import { queuedCallsLeft } from "../../components/run-detail/queued-calls.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { decide } from "../../lib/decisions/decide.ts";
import { changesAfter, feedHead } from "../../lib/live/feed.ts";
import { requests } from "../../lib/mastra/demo/requests.ts";
import { readAnswer } from "../../lib/mastra/demo/run-until-waiting.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("a run that moved, as its page reads it, on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  /** What the page reads, in its order, as `reader`: the calls the run waits on, then the decisions. */
  async function pageReads(reader: TestAccount, runId: string) {
    return runAs(actorOf(reader), async () => {
      const run = await readRun({ runId, countAsOpened: false });
      const decisions = await readCallDecisions({ runId });
      if (!run.ok || !decisions.ok) throw new Error(`a read was refused: ${JSON.stringify({ run, decisions })}`);
      return {
        waiting: run.data?.toolCalls.map((call) => call.toolCallId) ?? null,
        queued: run.data?.queuedCalls.map((call) => call.toolCallId) ?? null,
        decided: decisions.data.map(({ toolCallId, decision }) => ({ toolCallId, action: decision.action, state: decision.state })),
      };
    });
  }

  /** The feed's changes of `run` after `before`: their kinds, and the call each names ("" for none). */
  async function changesOf(run: DemoRun, before: number) {
    const changes = (await changesAfter(await getDb(database.url), before)).filter((change) => change.runId === run.runId);
    return changes.map((change) => `${change.kind} ${change.toolCallId ?? ""}`.trim());
  }

  const approveOutside = async (run: DemoRun) =>
    readAnswer(await (await createConsoleMastra(database.url)).getAgent("refunds").approveToolCall(run.ref));

  it("continued outside the console: the feed says it left, the run waits on nothing and no decision is named", async () => {
    const reviewer = await createTestAccount(database.url, "reviewer");
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5001"));
    expect(await pageReads(reviewer, run.runId)).toEqual({ waiting: [run.ref.toolCallId], queued: [], decided: [] });

    const before = await feedHead(await getDb(database.url));
    await approveOutside(run);

    // The run, not the call: the page cannot tell which of its calls went from the change alone.
    expect(await changesOf(run, before)).toContain("left");
    expect(await pageReads(reviewer, run.runId)).toEqual({ waiting: null, queued: null, decided: [] });
  });

  it("a page following its run counts no opening; opening the run's row does", async () => {
    const reviewer = await createTestAccount(database.url, "reviewer");
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5002"));
    const views = async () => (await getDb(database.url)).callView.findMany({ where: { runId: run.runId } });
    await pageReads(reviewer, run.runId);
    expect(await views()).toEqual([]);
    await runAs(actorOf(reviewer), () => readRun({ runId: run.runId }));
    expect((await views()).map((view) => [view.toolCallId, view.reviewer, view.contextOpenedAt])).toEqual([
      [run.ref.toolCallId, reviewer.email, null],
    ]);
  });

  it("one of two parallel calls continued outside: the run waits on the other, which the page does not show yet", async () => {
    const reviewer = await createTestAccount(database.url, "reviewer");
    const text = requests.severalRefunds({
      orders: [
        { order: "ORD-5011", amount: "12.00", currency: "EUR" },
        { order: "ORD-5012", amount: "30.00", currency: "EUR" },
      ],
    }).text;
    const run = await suspendDemoRun(database.url, "refunds", text);
    const shown = await pageReads(reviewer, run.runId);
    expect(shown.waiting).toEqual([run.ref.toolCallId]);
    expect(shown.queued).toHaveLength(1);
    const second = shown.queued![0]!;

    const before = await feedHead(await getDb(database.url));
    await approveOutside(run);

    // The run never stopped waiting: the store says only that it waits on the next call.
    expect(await changesOf(run, before)).toEqual([`waiting ${second}`]);
    const next = await pageReads(reviewer, run.runId);
    expect(next).toEqual({ waiting: [second], queued: [], decided: [] });
    // The page's queued card: still to be reached while the run waits on a call of its step…
    const stepCalls = [run.ref.toolCallId, second];
    const waitingNow = (reads: { waiting: Array<string | undefined> | null }) =>
      new Set((reads.waiting ?? []).flatMap((id) => (id ? [id] : [])));
    expect(queuedCallsLeft(waitingNow(shown), stepCalls)).toBe(false);
    expect(queuedCallsLeft(waitingNow(next), stepCalls)).toBe(false);
    expect(queuedCallsLeft(null, stepCalls)).toBe(false); // not read since the page loaded

    // …and left behind once the run went on past both without the console.
    await approveOutside({ ...run, ref: { runId: run.runId, toolCallId: second } });
    const ended = await pageReads(reviewer, run.runId);
    expect(ended.waiting).toBeNull();
    expect(queuedCallsLeft(waitingNow(ended), stepCalls)).toBe(true);
  });

  it("decided in the console: the decision is in the feed before the run leaves, and named once it has", async () => {
    const reviewer = await createTestAccount(database.url, "reviewer");
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-5021"));
    const before = await feedHead(await getDb(database.url));
    await decide({ action: "approve", ...run.ref }, { reviewer: reviewer.email, databaseUrl: database.url });

    const changes = await changesOf(run, before);
    const recorded = changes.indexOf(`decision.recorded ${run.ref.toolCallId}`);
    expect(recorded).toBeGreaterThanOrEqual(0);
    expect(recorded).toBeLessThan(changes.indexOf("left"));
    expect(await pageReads(reviewer, run.runId)).toEqual({
      waiting: null,
      queued: null,
      decided: [{ toolCallId: run.ref.toolCallId, action: "approve", state: "applied" }],
    });
  });
});
