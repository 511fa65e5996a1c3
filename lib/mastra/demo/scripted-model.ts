import { randomUUID } from "node:crypto";
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";

/** What the scripted model sees of the conversation so far. */
export interface ScriptContext {
  /** Text of the most recent user message. */
  userText: string;
  /** Results of tool calls made since that user message, oldest first. */
  toolResults: Array<{ toolName: string; output: unknown }>;
}

/** One model turn: call a tool, call several tools in one step, or answer in text. */
export type ScriptedTurn =
  | { type: "tool-call"; toolName: string; args: Record<string, unknown> }
  | { type: "tool-calls"; calls: Array<{ toolName: string; args: Record<string, unknown> }> }
  | { type: "text"; text: string };

/** The tool calls a turn makes, in the model's order (none for a text answer). */
function callsOf(turn: ScriptedTurn): Array<{ toolName: string; args: Record<string, unknown> }> {
  return turn.type === "tool-call" ? [turn] : turn.type === "tool-calls" ? turn.calls : [];
}

export type Script = (context: ScriptContext) => ScriptedTurn;

/**
 * A language model that answers from a script instead of a network call, so the demo agents and
 * the tests run offline while going through Mastra's real agent loop (tool approval, suspend,
 * resume, snapshots). It speaks the AI SDK v3 model protocol that Mastra accepts from any provider.
 */
export function createScriptedModel(modelId: string, script: Script): LanguageModelV3 {
  const respond = (options: LanguageModelV3CallOptions) => script(readContext(options.prompt));
  return {
    specificationVersion: "v3",
    provider: "scripted",
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const turn = respond(options);
      return {
        content:
          turn.type === "text"
            ? [{ type: "text", text: turn.text }]
            : callsOf(turn).map((call) => ({
                type: "tool-call" as const,
                toolCallId: newToolCallId(),
                toolName: call.toolName,
                input: JSON.stringify(call.args),
              })),
        finishReason: finishReasonOf(turn),
        usage: USAGE,
        warnings: [],
      };
    },
    async doStream(options) {
      const turn = respond(options);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (turn.type === "text") {
        const id = randomUUID();
        parts.push({ type: "text-start", id }, { type: "text-delta", id, delta: turn.text }, { type: "text-end", id });
      } else {
        for (const call of callsOf(turn)) {
          parts.push({ type: "tool-call", toolCallId: newToolCallId(), toolName: call.toolName, input: JSON.stringify(call.args) });
        }
      }
      parts.push({ type: "finish", finishReason: finishReasonOf(turn), usage: USAGE });
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

function finishReasonOf(turn: ScriptedTurn) {
  return turn.type === "text" ? { unified: "stop" as const, raw: "stop" } : { unified: "tool-calls" as const, raw: "tool_calls" };
}

function newToolCallId() {
  return `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

function readContext(prompt: LanguageModelV3Prompt): ScriptContext {
  let userText = "";
  let toolResults: ScriptContext["toolResults"] = [];
  for (const message of prompt) {
    if (message.role === "user") {
      userText = message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
      toolResults = [];
    } else if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type === "tool-result") toolResults.push({ toolName: part.toolName, output: part.output });
      }
    }
  }
  return { userText, toolResults };
}
