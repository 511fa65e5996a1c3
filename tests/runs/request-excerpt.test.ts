/**
 * The queue row's one line of what the agent was asked: kept with the snapshot when it is written
 * (never parsed at read time), for every run shape, on SQLite and PostgreSQL, from runs of the real
 * demo agents (scripted model). It equals the run's last user message on one line, cut; hostile text
 * is stored as plain, storable text; runs waiting before the column existed get theirs when the
 * store's migration 0006 adds it, with the summaries and their triggers intact.
 */
import { randomUUID } from "node:crypto";
import { getQueuePage, QUEUE_EXCERPT_LENGTH } from "../../lib/queue/views.ts";
import { queueQuery } from "../../lib/search-params.ts";
import { describe, expect, it } from "vitest";
import { REQUEST_EXCERPT_MAX_LENGTH } from "../../packages/mastra-store/src/conversation.ts";
import { getDb } from "../../lib/db/client.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { delegated, durable } from "../../lib/mastra/demo/requests.ts";
import { startUntilSuspended } from "../../lib/mastra/demo/run-until-waiting.ts";
import { listSuspendedRuns } from "../../lib/runs/list-suspended-runs.ts";
import { listThreads } from "../../lib/runs/list-threads.ts";
import { createMastraStorage } from "../../lib/store/index.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

/** The excerpt as docs/context.md states it, computed here independently of the store's code. */
function expectedExcerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= REQUEST_EXCERPT_MAX_LENGTH ? line : `${line.slice(0, REQUEST_EXCERPT_MAX_LENGTH - 1).trimEnd()}…`;
}

async function listedExcerpt(databaseUrl: string, runId: string): Promise<string | undefined> {
  const { runs } = await listSuspendedRuns({}, databaseUrl);
  const run = runs.find((candidate) => candidate.runId === runId);
  expect(run, `run ${runId} is listed`).toBeDefined();
  return run!.requestExcerpt;
}

async function storedExcerpts(databaseUrl: string, runId: string) {
  const db = await getDb(databaseUrl);
  return db.workflowSnapshot.findMany({ where: { runId }, select: { workflowName: true, status: true, requestExcerpt: true } });
}

describe.each(["sqlite", "postgres"] as const)("the request excerpt on %s", { timeout: 180_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  it("of an agent run is its user message on one line, in the listing and on the queue's page", async () => {
    const text = refundRequest("ORD-8101");
    expect(text).toContain("\n");
    const run = await suspendDemoRun(database.url, "refunds", text);
    expect(await listedExcerpt(database.url, run.runId)).toBe(expectedExcerpt(text));
    const page = await listThreads({ threadId: run.thread, overdueBefore: new Date() }, database.url);
    expect(page.threads.flatMap((thread) => thread.shownRuns.map((shown) => shown.requestExcerpt))).toEqual([expectedExcerpt(text)]);
    // The queue's row carries what one line shows: the same words, cut again at QUEUE_EXCERPT_LENGTH.
    const queue = await getQueuePage(queueQuery.parse({ threadId: run.thread }));
    const rowExcerpt = queue.threads[0]!.runs[0]!.requestExcerpt!;
    expect(expectedExcerpt(text).length).toBeGreaterThan(QUEUE_EXCERPT_LENGTH);
    expect(rowExcerpt).toHaveLength(QUEUE_EXCERPT_LENGTH);
    expect(rowExcerpt).toBe(
      `${expectedExcerpt(text)
        .slice(0, QUEUE_EXCERPT_LENGTH - 1)
        .trimEnd()}…`,
    );
    // Only the waiting row carries it: Mastra's internal rows of the run have none.
    const rows = await storedExcerpts(database.url, run.runId);
    expect(rows.filter((row) => row.requestExcerpt !== null).map((row) => row.workflowName)).toEqual(["agentic-loop"]);
  });

  it("of a durable agent, a supervisor's delegated call, and none for a workflow step", async () => {
    const durableText = durable({ agent: "refunds", text: refundRequest("ORD-8102") }).text;
    const durableRun = await suspendDemoRun(database.url, "billing", durableText);
    expect(await listedExcerpt(database.url, durableRun.runId)).toBe(expectedExcerpt(durableText));

    const supervisorText = delegated({ agent: "refunds", text: refundRequest("ORD-8103") }).text;
    const supervised = await suspendDemoRun(database.url, "supportDesk", supervisorText);
    expect(await listedExcerpt(database.url, supervised.runId)).toBe(expectedExcerpt(supervisorText));

    const mastra = await createConsoleMastra(database.url);
    const input = { orderId: "ORD-8104", customerEmail: "w@customer.example", amount: 900, currency: "EUR", reason: "broken" };
    const waiting = await startUntilSuspended(mastra.getWorkflow("refundApproval"), input, {
      resource: `cust_${randomUUID()}`,
      databaseUrl: database.url,
    });
    expect(await listedExcerpt(database.url, waiting.runId)).toBeUndefined();
    expect((await storedExcerpts(database.url, waiting.runId)).every((row) => row.requestExcerpt === null)).toBe(true);
  });

  it("is cut, one line and storable, however hostile the message", async () => {
    const hostile = `<img src=x onerror="alert(1)">\u0000 tab\there\r\nnext \ud800 lone ${"ø".repeat(200)} 😀${"x".repeat(10_000)}`;
    const run = await suspendDemoRun(database.url, "refunds", `${hostile}\n${refundRequest("ORD-8105")}`);
    const excerpt = (await listedExcerpt(database.url, run.runId))!;
    expect(excerpt).toHaveLength(REQUEST_EXCERPT_MAX_LENGTH);
    expect(excerpt.endsWith("…")).toBe(true);
    expect(excerpt.startsWith('<img src=x onerror="alert(1)"> tab here next \ufffd lone øøø')).toBe(true);
    expect(excerpt).not.toMatch(/[\u0000-\u001f]/);
    expect(excerpt).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  it("is stored empty, and not listed, for an agent run with no user message the reader knows", async () => {
    const storage = (await createMastraStorage(database.url)).stores!.workflows!;
    const runId = randomUUID();
    const snapshot = {
      runId,
      status: "suspended",
      value: {},
      context: {
        executionWorkflow: {
          status: "suspended",
          suspendPayload: { __agentId: "refunds", requireToolApproval: { toolCallId: "call_x", toolName: "issueRefund", args: {} } },
        },
      },
      activePaths: [],
      activeStepsPath: {},
      serializedStepGraph: [],
      suspendedPaths: {},
      resumeLabels: {},
      waitingPaths: {},
      timestamp: Date.now(),
    };
    await storage.persistWorkflowSnapshot({ workflowName: "agentic-loop", runId, snapshot: snapshot as never });
    expect(await listedExcerpt(database.url, runId)).toBeUndefined();
    expect((await storedExcerpts(database.url, runId)).map((row) => row.requestExcerpt)).toEqual([""]);
  });
});
