// A Mastra app outside this repository that adopts the store package with one change to its config
// (copied into a temporary project by packed-tarball.test.ts, which installs the packed tarball). It
// runs a real agent on a scripted model until a tool waits for approval, lists the waiting run,
// approves it and prints what happened as JSON. Plain JavaScript: the project has no TypeScript.
import { randomUUID } from "node:crypto";
import { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { InMemoryStore, MastraCompositeStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { PrismaWorkflowsStorage } from "@agent-approvals/mastra-store";

const executed = [];
const refund = createTool({
  id: "refund",
  description: "Refund an order",
  inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
  requireApproval: true,
  execute: async (input) => {
    executed.push(input);
    return { refunded: input.amount };
  },
});

// Calls the tool until it has an answer, then says what it got: what a real model would do here.
const model = {
  specificationVersion: "v3",
  provider: "scripted",
  modelId: "scripted",
  supportedUrls: {},
  async doGenerate() {
    throw new Error("only streaming is used here");
  },
  async doStream({ prompt }) {
    const answered = prompt.some((message) => message.role === "tool");
    const parts = [{ type: "stream-start", warnings: [] }];
    if (answered) {
      parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Refund done." }, { type: "text-end", id: "t" });
    } else {
      const input = JSON.stringify({ orderId: "A-1", amount: 42 });
      parts.push({ type: "tool-call", toolCallId: `call_${randomUUID().slice(0, 8)}`, toolName: "refund", input });
    }
    const usage = { inputTokens: { total: 0 }, outputTokens: { total: 0 } };
    const reason = answered ? { unified: "stop", raw: "stop" } : { unified: "tool-calls", raw: "tool_calls" };
    parts.push({ type: "finish", finishReason: reason, usage });
    return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) };
  },
};

const mastra = new Mastra({
  agents: { support: new Agent({ id: "support", name: "Support", instructions: "Refund orders.", model, tools: { refund } }) },
  // The one change: the workflows domain (where waiting runs live) goes to the package.
  storage: new MastraCompositeStore({
    id: "app",
    default: new InMemoryStore(),
    domains: { workflows: new PrismaWorkflowsStorage({ databaseUrl: process.env.DATABASE_URL }) },
  }),
  logger: false,
});

const agent = mastra.getAgent("support");
const stream = await agent.stream("Refund order A-1", { memory: { thread: "thread-1", resource: "customer-7" } });
let toolCallId;
for await (const chunk of stream.fullStream) if (chunk.type === "tool-call-approval") toolCallId = chunk.payload.toolCallId;

const listed = await agent.listSuspendedRuns({ resourceId: "customer-7" });
const approved = await agent.approveToolCall({ runId: stream.runId, toolCallId });
let answer = "";
for await (const chunk of approved.fullStream) if (chunk.type === "text-delta") answer += chunk.payload.text;
const after = await agent.listSuspendedRuns({ resourceId: "customer-7" });

console.log(
  JSON.stringify({
    runId: stream.runId,
    toolCallId,
    listed: listed.runs.map((run) => ({ runId: run.runId, threadId: run.threadId, calls: run.toolCalls?.map((call) => call.toolCallId) })),
    executed,
    answer,
    leftAfterApproval: after.total,
  }),
);
process.exit(0);
