// An offline stand-in for the README's `model: "openai/gpt-4o-mini"` in the adopting project
// (packed-tarball.test.ts puts it on that one line of the README's agents.mjs). It calls the
// README's tools as a real model would: issueRefund for a refund request, chooseAddress for a
// shipping question, and answers in text once a tool has answered. Plain JavaScript, AI SDK v3
// stream protocol (what Mastra accepts from any provider); no import from the repository.
import { randomUUID } from "node:crypto";

const textOf = (message) =>
  typeof message.content === "string" ? message.content : message.content.map((part) => part.text ?? "").join("");

function turn(prompt) {
  const lastUser = prompt.findLastIndex((message) => message.role === "user");
  const results = prompt.slice(lastUser + 1).filter((message) => message.role === "tool");
  if (results.length > 0) {
    const output = results.at(-1).content.at(-1)?.output;
    return { text: `Done: ${JSON.stringify(output?.value ?? output)}` };
  }
  const request = textOf(prompt[lastUser] ?? { content: "" });
  const order = /order (\S+?)[,?.\s]/i.exec(`${request} `)?.[1] ?? "A-0";
  if (/refund/i.test(request)) return { toolName: "issueRefund", input: { orderId: order, amount: 42 } };
  if (/ship/i.test(request)) return { toolName: "chooseAddress", input: { orderId: order } };
  return { text: "I can refund orders and ask where they ship." };
}

const usage = { inputTokens: { total: 0 }, outputTokens: { total: 0 } };

export const scriptedModel = {
  specificationVersion: "v3",
  provider: "scripted",
  modelId: "scripted",
  supportedUrls: {},
  async doGenerate() {
    throw new Error("the README's code streams");
  },
  async doStream({ prompt }) {
    const next = turn(prompt);
    const parts = [{ type: "stream-start", warnings: [] }];
    if (next.text !== undefined) {
      parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: next.text }, { type: "text-end", id: "t" });
      parts.push({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
    } else {
      const toolCallId = `call_${randomUUID().slice(0, 8)}`;
      parts.push({ type: "tool-call", toolCallId, toolName: next.toolName, input: JSON.stringify(next.input) });
      parts.push({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage });
    }
    return {
      stream: new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }),
    };
  },
};
