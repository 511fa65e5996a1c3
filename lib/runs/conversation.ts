/**
 * The conversation behind a waiting call, for the reviewer (packages/mastra-store's readConversation
 * reads Mastra's layout): read when a call opens, never with the queue page. Bounded whatever the
 * run holds: long texts and large values are cut before they leave the server, and a conversation
 * of thousands of messages comes a page at a time, newest page first.
 */
import { loadExecutionSnapshot, readConversation, type ConversationPart } from "@agent-approvals/mastra-store";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import type { ConversationPage, ConversationPartDto, CutValue } from "./conversation-dto.ts";

export type { ConversationPage } from "./conversation-dto.ts";

/** Characters of one text or one value (as JSON) that reach the browser. */
export const CONVERSATION_TEXT_LIMIT = 20_000;
/** Messages per page. */
export const CONVERSATION_PAGE_SIZE = 50;

/**
 * One page of the run's conversation: the `CONVERSATION_PAGE_SIZE` messages before index `before`
 * (default: the end). Null when the run no longer waits or its layout is not one the store knows.
 */
export async function getRunConversation(
  runId: string,
  { before }: { before?: number } = {},
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<ConversationPage | null> {
  const db = await getDb(databaseUrl);
  const row = await db.workflowSnapshot.findFirst({
    where: { runId, status: "suspended", agentId: { not: null } },
    select: { workflowName: true, snapshot: true, toolCalls: true },
  });
  if (!row) return null;
  const execution = await loadExecutionSnapshot(db, row.workflowName, runId);
  let conversation: ReturnType<typeof readConversation>;
  try {
    conversation = readConversation(row.workflowName, JSON.parse(row.snapshot), execution);
  } catch {
    conversation = null;
  }
  if (!conversation) return null;
  // A waiting call that is a delegation names its path (supervisor → sub-agents → tool) in the listing's column.
  const delegations = new Map<string, string[]>();
  for (const call of JSON.parse(row.toolCalls ?? "[]") as Array<{ toolCallId?: string; path?: string[] }>) {
    if (call.toolCallId && call.path && call.path.length > 2) delegations.set(call.toolCallId, call.path.slice(1, -1));
  }
  const total = conversation.messages.length;
  const end = Math.min(before ?? total, total);
  const start = Math.max(0, end - CONVERSATION_PAGE_SIZE);
  return {
    runId,
    instructions: conversation.instructions.map(boundedText),
    messages: conversation.messages
      .slice(start, end)
      .map((message) => ({ ...message, parts: message.parts.map((part) => withDelegation(boundedPart(part), delegations)) })),
    start,
    total,
  };
}

function withDelegation(part: ConversationPartDto, delegations: Map<string, string[]>): ConversationPartDto {
  if (part.type !== "tool-call") return part;
  const delegatedTo = delegations.get(part.toolCallId);
  return delegatedTo ? { ...part, delegatedTo } : part;
}

function boundedText(text: string): { text: string; length: number } {
  return { text: text.length > CONVERSATION_TEXT_LIMIT ? text.slice(0, CONVERSATION_TEXT_LIMIT) : text, length: text.length };
}

export function boundedPart(part: ConversationPart): ConversationPartDto {
  if (part.type === "text") return { type: "text", ...boundedText(part.text) };
  if (part.type === "reasoning") return { type: "reasoning", ...boundedText(part.text) };
  if (part.type === "data") return { ...part, value: boundedValue(part.value) };
  return { ...part, args: boundedValue(part.args), ...(part.hasResult ? { result: boundedValue(part.result) } : {}) };
}

function boundedValue(value: unknown): unknown {
  const json = JSON.stringify(value) ?? "null";
  return json.length > CONVERSATION_TEXT_LIMIT
    ? ({ cut: true, preview: json.slice(0, CONVERSATION_TEXT_LIMIT), length: json.length } satisfies CutValue)
    : value;
}
