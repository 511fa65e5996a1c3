/**
 * What a reviewer reads before deciding: the conversation behind a waiting call, for every run shape
 * the store lists, on SQLite and PostgreSQL, from runs of the real demo agents (scripted model) and
 * workflow. It equals what the agent was sent, its instructions, and the call it made; a layout the
 * reader does not know is the empty state; hostile and huge texts are cut before they leave the
 * server; a long conversation comes in pages.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { createConsoleMastra } from "../../lib/mastra/index.ts";
import { delegated, durable } from "../../lib/mastra/demo/requests.ts";
import { startUntilSuspended } from "../../lib/mastra/demo/run-until-waiting.ts";
import { CONVERSATION_PAGE_SIZE, CONVERSATION_TEXT_LIMIT, getRunConversation } from "../../lib/runs/conversation.ts";
import type { ConversationPage } from "../../lib/runs/conversation-dto.ts";
import { findSuspendedRun } from "../../lib/runs/run-detail.ts";
import { createMastraStorage } from "../../lib/store/index.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

const REFUNDS_INSTRUCTIONS =
  "You handle refund requests for an online shop. Use issueRefund for full refunds and settlePartialRefund when the request is for a partial refund.";

const texts = (page: ConversationPage, role: string) =>
  page.messages
    .filter((message) => message.role === role)
    .flatMap((message) => message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])));
const calls = (page: ConversationPage) =>
  page.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === "tool-call" ? [part] : [])));

describe.each(["sqlite", "postgres"] as const)("the conversation behind a waiting call on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  it("of an agent run: what it was asked, its instructions, and the call it made, last", async () => {
    const text = refundRequest("ORD-7101");
    const run = await suspendDemoRun(database.url, "refunds", text);
    const listed = await findSuspendedRun(run.runId, database.url);
    const page = (await getRunConversation(run.runId, {}, database.url))!;
    expect(page).toMatchObject({ runId: run.runId, start: 0, total: 2 });
    expect(page.instructions).toEqual([{ text: REFUNDS_INSTRUCTIONS, length: REFUNDS_INSTRUCTIONS.length }]);
    expect(texts(page, "user")).toEqual([text]);
    expect(page.messages.at(-1)?.role).toBe("assistant");
    expect(calls(page)).toEqual([
      { type: "tool-call", toolCallId: run.ref.toolCallId, toolName: "issueRefund", args: listed!.toolCalls[0]!.args, hasResult: false },
    ]);
  });

  it("of a durable agent, read from its internal row", async () => {
    const text = durable({ agent: "refunds", text: refundRequest("ORD-7102") }).text;
    const run = await suspendDemoRun(database.url, "billing", text);
    const page = (await getRunConversation(run.runId, {}, database.url))!;
    expect(page.instructions.map((instruction) => instruction.text)).toEqual([expect.stringMatching(/^You handle billing disputes\./)]);
    expect(texts(page, "user")).toEqual([text]);
    expect(calls(page).map((call) => [call.toolCallId, call.toolName])).toEqual([[run.ref.toolCallId, "issueRefund"]]);
  });

  it("of a supervisor's delegated call: the outer conversation and the prompt it gave the sub-agent", async () => {
    const text = delegated({ agent: "refunds", text: refundRequest("ORD-7103") }).text;
    const run = await suspendDemoRun(database.url, "supportDesk", text);
    const page = (await getRunConversation(run.runId, {}, database.url))!;
    expect(texts(page, "user")).toEqual([text]);
    const [delegation] = calls(page);
    expect(delegation).toMatchObject({
      toolCallId: run.ref.toolCallId,
      toolName: "agent-refunds",
      args: { prompt: expect.stringContaining("ORD-7103") },
      delegatedTo: ["refunds"],
    });
  });

  it("of a workflow step: the workflow's input and the step's", async () => {
    const mastra = await createConsoleMastra(database.url);
    const input = { orderId: "ORD-7104", customerEmail: "w@customer.example", amount: 900, currency: "EUR", reason: "broken" };
    const waiting = await startUntilSuspended(mastra.getWorkflow("refundApproval"), input, {
      resource: `cust_${randomUUID()}`,
      databaseUrl: database.url,
    });
    const page = (await getRunConversation(waiting.runId, {}, database.url))!;
    expect(page.instructions).toEqual([]);
    expect(page.messages[0]).toMatchObject({ role: "input", parts: [{ type: "data", label: "Workflow input", value: input }] });
    expect(page.messages.at(-1)).toMatchObject({ role: "input", parts: [{ type: "data", label: "Input of step manager-approval" }] });
  });

  it("is empty, never an error, for a layout the reader does not know, and null once the run stops waiting", async () => {
    const storage = (await createMastraStorage(database.url)).stores!.workflows!;
    const runId = randomUUID();
    // A suspended agent run as listing finds it, but without Mastra's message list.
    const snapshot = {
      runId,
      status: "suspended",
      value: {},
      context: {
        executionWorkflow: {
          status: "suspended",
          suspendPayload: {
            __agentId: "refunds",
            requireToolApproval: { toolCallId: "call_x", toolName: "issueRefund", args: {} },
            __streamState: { something: "else" },
          },
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
    expect(await findSuspendedRun(runId, database.url)).not.toBeNull();
    expect(await getRunConversation(runId, {}, database.url)).toBeNull();
    expect(await getRunConversation(randomUUID(), {}, database.url)).toBeNull();
  });

  it("cuts a 2 MB hostile message before it leaves the server, and pages a long conversation", async () => {
    const hostile = `<img src=x onerror="alert(1)">${"a".repeat(2 * 1024 * 1024)}`;
    const run = await suspendDemoRun(database.url, "refunds", `${refundRequest("ORD-7105")}\n${hostile}`);
    const page = (await getRunConversation(run.runId, {}, database.url))!;
    const [user] = page.messages[0]!.parts;
    expect(user).toMatchObject({ type: "text", length: hostile.length + refundRequest("ORD-7105").length + 1 });
    expect((user as { text: string }).text).toHaveLength(CONVERSATION_TEXT_LIMIT);
    expect(JSON.stringify(page).length).toBeLessThan(3 * CONVERSATION_TEXT_LIMIT);

    // The same run as Mastra stored it, with 120 earlier messages in its list (a long-running conversation).
    const db = await getDb(database.url);
    const row = await db.workflowSnapshot.findFirstOrThrow({ where: { runId: run.runId, workflowName: "agentic-loop" } });
    const stored = JSON.parse(row.snapshot);
    const list = stored.context.executionWorkflow.suspendPayload.__streamState.messageList;
    const earlier = Array.from({ length: 120 }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 ? "assistant" : "user",
      content: { format: 2, parts: [{ type: "text", text: `message ${i}` }] },
    }));
    list.messages = [...earlier, ...list.messages];
    await db.workflowSnapshot.update({
      where: { workflowName_runId: { workflowName: row.workflowName, runId: row.runId } },
      data: { snapshot: JSON.stringify(stored) },
    });
    const last = (await getRunConversation(run.runId, {}, database.url))!;
    expect(last).toMatchObject({ total: 122, start: 122 - CONVERSATION_PAGE_SIZE });
    expect(last.messages).toHaveLength(CONVERSATION_PAGE_SIZE);
    expect(calls(last).map((call) => call.toolCallId)).toEqual([run.ref.toolCallId]);
    const before = (await getRunConversation(run.runId, { before: last.start }, database.url))!;
    expect(before).toMatchObject({ start: 22 });
    expect(texts(before, "user")[0]).toBe("message 22");
    const first = (await getRunConversation(run.runId, { before: before.start }, database.url))!;
    expect(first.start).toBe(0);
    expect(first.messages.map((message) => message.id)).toEqual(earlier.slice(0, 22).map((message) => message.id));
  });
});
