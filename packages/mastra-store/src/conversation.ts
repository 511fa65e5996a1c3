/**
 * What led to a waiting call, read from Mastra's message layout (@mastra/core 1.71), for every run
 * shape the store lists:
 *  - an agent run keeps its message list in the suspended step's payload
 *    (`__streamState.messageList`: `messages` in Mastra's stored format 2, `systemMessages`);
 *  - a durable agent keeps it in its internal row's model step
 *    (`durable-llm-execution.output.messageListState`);
 *  - a supervisor's run is the outer conversation; the prompt it gave the sub-agent is the
 *    arguments of its `agent-<name>` call, part of that conversation;
 *  - a plain workflow has no messages: its input and the waiting step's input stand in for them.
 * A layout this module does not recognise reads as `null` ("no conversation recorded"), never an
 * error: Mastra's format is internal and changes between versions.
 */
import type { WorkflowRunState } from "@mastra/core/workflows";
import { isAgentLoopWorkflow } from "./run-kinds.ts";
import { suspendedWorkflowSteps } from "./workflow-steps.ts";

type Json = Record<string, unknown>;

export type ConversationPart =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  /** A tool call of this run: `result` once it returned (its step is over), else still open. */
  | { type: "tool-call"; toolCallId: string; toolName: string; args: unknown; result?: unknown; hasResult: boolean }
  /** A workflow's input, or its waiting step's: what the run was started with and what the step got. */
  | { type: "data"; label: string; value: unknown };

export interface ConversationMessage {
  id: string;
  role: "user" | "assistant" | "tool" | "input";
  /** ISO time, when Mastra recorded one. */
  createdAt: string | null;
  parts: ConversationPart[];
}

export interface RunConversation {
  /** The agent's instructions (its system messages), in order. */
  instructions: string[];
  /** Oldest first, as Mastra keeps them: the pending call is in the last assistant message. */
  messages: ConversationMessage[];
}

/**
 * The conversation of a stored run. `execution`: the run's internal row (executionWorkflowOf), where
 * a durable agent keeps its messages. Null when the layout is not one this module knows.
 */
export function readConversation(workflowName: string, snapshot: WorkflowRunState, execution?: WorkflowRunState): RunConversation | null {
  if (!isObject(snapshot)) return null;
  if (!isAgentLoopWorkflow(workflowName)) return readWorkflowInputs(snapshot);
  const [list] = messageListsOf(snapshot, execution);
  if (!list) return null;
  const messages = ownMessagesOf(list).flatMap((message) => {
    const read = readStoredMessage(message);
    return read ? [read] : [];
  });
  const instructions = (Array.isArray(list.systemMessages) ? list.systemMessages : []).flatMap((message) => {
    const text = isObject(message) ? textOf(message.content) : undefined;
    return text ? [text] : [];
  });
  return messages.length || instructions.length ? { instructions, messages } : null;
}

/**
 * When the run started: the time of its first own message (the request it was started with), as an
 * ISO time; null when the layout is unknown or no message has a time. Messages of the run's memory
 * thread older than this are the thread's earlier messages ("Earlier in this thread"). Not the
 * snapshot row's time: Mastra saves the run's first message a few milliseconds before the row.
 */
export function runStartedAt(workflowName: string, snapshot: WorkflowRunState, execution?: WorkflowRunState): string | null {
  if (!isObject(snapshot) || !isAgentLoopWorkflow(workflowName)) return null;
  const [list] = messageListsOf(snapshot, execution);
  if (!list) return null;
  let earliest: string | null = null;
  for (const message of ownMessagesOf(list)) {
    const time = isObject(message) ? isoTime(message.createdAt) : null;
    if (time && (earliest === null || time < earliest)) earliest = time;
  }
  return earliest;
}

/**
 * The run's own messages: without those its agent's memory recalled from the thread (Mastra lists
 * their ids in `memoryMessages`), which belong to earlier runs and are read from the thread instead.
 */
function ownMessagesOf(list: Json): unknown[] {
  const messages = Array.isArray(list.messages) ? list.messages : [];
  const recalled = new Set(Array.isArray(list.memoryMessages) ? list.memoryMessages.filter((id) => typeof id === "string") : []);
  return recalled.size ? messages.filter((message) => !(isObject(message) && recalled.has(message.id as string))) : messages;
}

/**
 * The message lists Mastra streamed the run with: each suspended step's (a plain agent keeps it in
 * the step's payload), then a durable agent's, kept in its internal row's model step. The one place
 * that knows where they are (snapshot-reader.ts reads queued calls and resume schemas from them).
 */
export function messageListsOf(snapshot: WorkflowRunState, execution?: WorkflowRunState): Json[] {
  const lists: Json[] = [];
  for (const step of Object.values((snapshot?.context ?? {}) as Json)) {
    if (!isObject(step) || step.status !== "suspended" || !isObject(step.suspendPayload)) continue;
    const list = (step.suspendPayload.__streamState as Json | undefined)?.messageList;
    if (isObject(list)) lists.push(list);
  }
  const durable = (((execution?.context as Json | undefined)?.["durable-llm-execution"] as Json | undefined)?.output as Json | undefined)
    ?.messageListState;
  if (isObject(durable)) lists.push(durable);
  return lists;
}

/** The longest request excerpt the store keeps (characters, the ellipsis included). */
export const REQUEST_EXCERPT_MAX_LENGTH = 120;

/**
 * A one-line excerpt of what the agent was last asked: the run's last user message, its whitespace
 * folded to single spaces, control characters dropped, cut at REQUEST_EXCERPT_MAX_LENGTH. Read when
 * a snapshot is written, so that a queue of waiting calls can say what each is about without reading
 * snapshots. `""` for an agent run without a user message (or a layout this module does not know);
 * `null` for a workflow run, which has no messages.
 */
export function requestExcerptOf(workflowName: string, snapshot: WorkflowRunState): string | null {
  if (!isAgentLoopWorkflow(workflowName)) return null;
  if (!isObject(snapshot)) return "";
  // A durable agent's outer row keeps the messages it was started with in its input.
  const durableInput = ((snapshot.context as Json | undefined)?.input as Json | undefined)?.messageListState;
  const lists = [...messageListsOf(snapshot), ...(isObject(durableInput) ? [durableInput] : [])];
  for (const list of lists) {
    const messages = Array.isArray(list.messages) ? list.messages : [];
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      if (!isObject(message) || message.role !== "user") continue;
      const text = readStoredMessage(message)
        ?.parts.flatMap((part) => (part.type === "text" ? [part.text] : []))
        .join(" ");
      const line = text ? oneLine(text) : "";
      if (line) return cut(line, REQUEST_EXCERPT_MAX_LENGTH);
    }
  }
  return "";
}

// eslint-disable-next-line no-control-regex
const BREAKS_AND_CONTROLS = /[\u0000-\u001f\u007f-\u009f\s]+/g;
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` on one line and storable anywhere: PostgreSQL's text refuses NUL, and a lone surrogate has no UTF-8. */
function oneLine(text: string): string {
  return text.replace(BREAKS_AND_CONTROLS, " ").replace(LONE_SURROGATES, "\ufffd").trim();
}

/**
 * `text` at most `max` UTF-16 units long (the ellipsis included), never split inside a surrogate
 * pair: how an excerpt is cut here, and again shorter where it is shown in less room.
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\ud800-\udbff]/.test(text[end - 1]!)) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * One message in Mastra's stored format (format 2: `content.parts`, or a plain text content), as a
 * snapshot's message list and Mastra's memory store (`listMessages`) keep it; undefined for a role
 * or layout this module does not read, or a message with nothing to show.
 */
export function readStoredMessage(message: unknown): ConversationMessage | undefined {
  if (!isObject(message) || typeof message.role !== "string") return undefined;
  const role = message.role === "user" || message.role === "assistant" || message.role === "tool" ? message.role : undefined;
  if (!role) return undefined;
  const content = message.content;
  const parts: ConversationPart[] = [];
  if (isObject(content) && Array.isArray(content.parts)) {
    for (const part of content.parts) {
      const read = readPart(part);
      if (read) parts.push(read);
    }
  } else {
    const text = textOf(content);
    if (text) parts.push({ type: "text", text });
  }
  if (parts.length === 0) return undefined;
  return {
    id: typeof message.id === "string" ? message.id : "",
    role,
    createdAt: isoTime(message.createdAt),
    parts,
  };
}

function readPart(part: unknown): ConversationPart | undefined {
  if (!isObject(part)) return undefined;
  if (part.type === "text" && typeof part.text === "string" && part.text.length > 0) return { type: "text", text: part.text };
  if (part.type === "reasoning") {
    const text = typeof part.reasoning === "string" ? part.reasoning : typeof part.text === "string" ? part.text : "";
    return text ? { type: "reasoning", text } : undefined;
  }
  if (part.type === "tool-invocation" && isObject(part.toolInvocation)) {
    const invocation = part.toolInvocation;
    if (typeof invocation.toolCallId !== "string" || typeof invocation.toolName !== "string") return undefined;
    const hasResult = invocation.state === "result";
    return {
      type: "tool-call",
      toolCallId: invocation.toolCallId,
      toolName: invocation.toolName,
      args: invocation.args ?? null,
      hasResult,
      ...(hasResult ? { result: invocation.result ?? null } : {}),
    };
  }
  return undefined;
}

/** A plain workflow's run: what it was started with, and what each waiting step was given. */
function readWorkflowInputs(snapshot: WorkflowRunState): RunConversation | null {
  const context = (snapshot.context ?? {}) as Json;
  const messages: ConversationMessage[] = [];
  if (context.input !== undefined) {
    messages.push({
      id: "input",
      role: "input",
      createdAt: null,
      parts: [{ type: "data", label: "Workflow input", value: context.input }],
    });
  }
  for (const { call } of suspendedWorkflowSteps(snapshot)) {
    const stepId = call.step?.[0];
    const step = stepId ? context[stepId] : undefined;
    if (!isObject(step) || step.payload === undefined) continue;
    messages.push({
      id: `step:${stepId}`,
      role: "input",
      createdAt: typeof step.startedAt === "number" ? new Date(step.startedAt).toISOString() : null,
      parts: [{ type: "data", label: `Input of step ${call.step!.join(" › ")}`, value: step.payload }],
    });
  }
  return messages.length ? { instructions: [], messages } : null;
}

/** A system message's or a plain message's text: a string, or the text parts of a content array. */
function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content || undefined;
  if (isObject(content) && typeof content.content === "string") return content.content || undefined;
  if (Array.isArray(content)) {
    const text = content
      .flatMap((part) => (isObject(part) && typeof part.text === "string" ? [part.text] : []))
      .join("\n")
      .trim();
    return text || undefined;
  }
  return undefined;
}

function isoTime(value: unknown): string | null {
  // A Date when read from Mastra's memory store; a string or number in a snapshot's JSON.
  if (!(value instanceof Date) && typeof value !== "string" && typeof value !== "number") return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
