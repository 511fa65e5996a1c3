/** What the browser gets of a run's conversation (lib/runs/conversation.ts): types only, browser-safe. */

/** A value as JSON text, cut: what is shown of arguments and results too large to send whole. */
export interface CutValue {
  cut: true;
  preview: string;
  length: number;
}

export type ConversationPartDto =
  | { type: "text"; text: string; length: number }
  | { type: "reasoning"; text: string; length: number }
  | {
      type: "tool-call";
      toolCallId: string;
      toolName: string;
      args: unknown;
      hasResult: boolean;
      result?: unknown;
      /** A supervisor's call that handed the request to sub-agents (their ids, in order): its arguments are the prompt it gave them. */
      delegatedTo?: string[];
    }
  | { type: "data"; label: string; value: unknown };

export interface ConversationMessageDto {
  id: string;
  role: "user" | "assistant" | "tool" | "input";
  createdAt: string | null;
  parts: ConversationPartDto[];
}

export interface ConversationPage {
  runId: string;
  instructions: Array<{ text: string; length: number }>;
  messages: ConversationMessageDto[];
  /** Index of the page's first message in the whole conversation: messages before it load with `before`. */
  start: number;
  total: number;
}

/** One argument a tool declares (its input schema's property), as "About this tool" lists it. */
export interface ToolField {
  /** Dotted for a nested object's property: `address.city`. */
  path: string;
  type: string;
  description: string | null;
  required: boolean;
}

/** What the registered tool (or workflow step) says about itself: its description and arguments. */
export interface ToolInfo {
  toolName: string;
  description: string | null;
  fields: ToolField[];
  /** Where it was read: the console's own agents, or the team's Mastra server (remote mode). */
  source: "registered" | "server";
}

/** A decided call, as "Earlier decisions" lists it. */
export interface EarlierDecision {
  runId: string;
  toolCallId: string;
  toolName: string | null;
  action: string;
  reviewer: string;
  decidedAt: string;
}

/** What was decided before: the same customer's calls of the same tool, and the same thread's calls. */
export interface EarlierDecisions {
  resourceId: string | null;
  toolName: string | null;
  days: number;
  /** Carried-out decisions of the last `days` days, by what was decided. */
  counts: { approved: number; declined: number; resumed: number; expired: number; outside: number };
  /** The latest of them, newest first. */
  recent: EarlierDecision[];
  /** Calls decided earlier in the same memory thread (any tool), newest first. */
  thread: EarlierDecision[];
}

/** A page of "Earlier in this thread": messages of the run's memory thread from before the run. */
export interface EarlierInThreadPage {
  runId: string;
  /** The run's memory thread; null for a run without one (nothing earlier to read). */
  threadId: string | null;
  /** Whether the run's agent remembers its thread: false for a run without one, or whose agent keeps no memory (nothing earlier, whatever the thread holds). */
  agentRemembers: boolean;
  /** Oldest first; at most a page of them, the newest not yet loaded. */
  messages: ConversationMessageDto[];
  /** Earlier messages still to load before this page (0: it reaches the start of the thread). */
  remaining: number;
  /** What to pass as `before` for the page before this one (its oldest message's time); null when none remain. */
  before: string | null;
}
