/**
 * Real Mastra agents for tests, on the real snapshot store, driven by a scripted model. Each tool
 * records its executions in `effects`, so a test can see whether (and how often) a tool really ran.
 */
import { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { createScriptedModel, type ScriptContext, type ScriptedTurn } from "../../lib/mastra/demo/scripted-model.ts";
import { readAnswer, runUntilWaiting } from "../../lib/mastra/demo/run-until-waiting.ts";
import { createMastraStorage } from "../../lib/store/index.ts";

export interface Effect {
  agentId: string;
  toolName: string;
  input: unknown;
  resumeData?: unknown;
}

/** Every tool execution in this process, in order. */
export const effects: Effect[] = [];

function tools(agentId: string) {
  return {
    transfer: createTool({
      id: "transfer",
      description: "Move money between accounts",
      inputSchema: z.object({ from: z.string(), to: z.string(), amount: z.number() }),
      requireApproval: true,
      execute: async (input) => {
        effects.push({ agentId, toolName: "transfer", input });
        return { transferred: input.amount, reference: `tr_${effects.length}` };
      },
    }),
    askQuestion: createTool({
      id: "ask-question",
      description: "Ask a person a question and wait for the answer",
      inputSchema: z.object({ topic: z.string() }),
      suspendSchema: z.object({ question: z.string(), topic: z.string() }),
      resumeSchema: z.object({ answer: z.string() }),
      execute: async (input, context) => {
        const resumeData = context?.agent?.resumeData;
        if (!resumeData) return context?.agent?.suspend?.({ question: `What about ${input.topic}?`, topic: input.topic });
        effects.push({ agentId, toolName: "askQuestion", input, resumeData });
        return { answered: resumeData };
      },
    }),
  };
}

/**
 * The playbook: "transfer <amount> from <a> to <b>" calls transfer, "ask <topic>" calls askQuestion;
 * once a tool answered, the agent reports what came back (a declined call's reason included).
 */
function playbook(context: ScriptContext): ScriptedTurn {
  const last = context.toolResults.at(-1);
  if (last) return { type: "text", text: `${last.toolName} answered: ${JSON.stringify(last.output)}` };
  const transfer = /transfer (\d+(?:\.\d+)?) from (\S+) to (\S+)/.exec(context.userText);
  if (transfer) {
    return { type: "tool-call", toolName: "transfer", args: { amount: Number(transfer[1]), from: transfer[2], to: transfer[3] } };
  }
  const ask = /ask (.+)/.exec(context.userText);
  if (ask) return { type: "tool-call", toolName: "askQuestion", args: { topic: ask[1]!.trim() } };
  return { type: "text", text: "Nothing to do." };
}

export function createTestAgents() {
  const agent = (id: string) =>
    new Agent({ id, name: id, instructions: "Test agent", model: createScriptedModel(id, playbook), tools: tools(id) });
  return { teller: agent("teller"), auditor: agent("auditor") };
}

export type TestMastra = Mastra<ReturnType<typeof createTestAgents>>;
export type TestAgentKey = keyof ReturnType<typeof createTestAgents>;

export async function createTestMastra(databaseUrl: string): Promise<TestMastra> {
  return new Mastra({ agents: createTestAgents(), storage: await createMastraStorage(databaseUrl), logger: false });
}

export interface SuspendedCall {
  runId: string;
  toolCallId: string;
  kind: "approval" | "suspend";
}

/** Runs a test agent until it waits for a person (lib/mastra/demo/run-until-waiting.ts); a second run on one thread needs a fresh Mastra. */
export function suspendRun(
  mastra: TestMastra,
  agent: TestAgentKey,
  text: string,
  memory: { thread: string; resource: string } | undefined,
): Promise<SuspendedCall> {
  return runUntilWaiting(mastra.getAgent(agent), text, memory);
}

export { readAnswer };
