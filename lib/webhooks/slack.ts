/**
 * The Slack preset: an endpoint flagged as Slack (an incoming-webhook URL) gets a Block Kit message
 * instead of the raw event: what waits (or what was decided), for which agent and customer, since
 * when, and a link to the run in the console (CONSOLE_URL, else BETTER_AUTH_URL). A call that still
 * waits shows what it would do: its arguments (or, for an input request, what it asks for), so that
 * nobody approves from Slack blind. A waiting call that asks for approval also gets Approve and
 * Decline buttons (lib/slack: answered at POST /api/integrations/slack/interactions); an input
 * request keeps only the link.
 */
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";
import type { EventPayload } from "../events/outbox.ts";
import { runLink } from "../links.ts";
import { findSuspendedRun } from "../runs/run-detail.ts";
import { decisionButtons, escapeMrkdwn as escape, slackTime } from "../slack/blocks.ts";

type MrkdwnText = { type: "mrkdwn"; text: string };
export type SlackBlock =
  | { type: "section"; text: MrkdwnText; fields?: MrkdwnText[] }
  | { type: "context"; elements: MrkdwnText[] }
  | ReturnType<typeof decisionButtons>;
export interface SlackMessage {
  /** What notifications and clients without blocks show. */
  text: string;
  blocks: SlackBlock[];
}

const field = (label: string, value: unknown): MrkdwnText => ({ type: "mrkdwn", text: `*${label}*\n${escape(value)}` });

const HEADLINES: Record<EventPayload["type"], (data: Record<string, unknown>) => string> = {
  "call.waiting": (data) => `*${escape(data.toolName)}* waits for a reviewer`,
  "call.assigned": (data) => `*${escape(data.toolName)}* was assigned to ${escape(data.assigneeEmail)} by ${escape(data.assignedBy)}`,
  "call.decided": (data) =>
    data.decidedBy === "outside"
      ? // Nobody here saw what was decided: say where, and how the run left, never an action it does not know.
        `*${escape(data.toolName)}* was decided outside the console (${data.runEnded ? "the run ended" : "the run moved on"}); what was decided is not known here`
      : `*${escape(data.toolName)}*: ${escape(data.action)} by ${escape(data.reviewer)} (${escape(data.state)})`,
  "call.overdue": (data) => `*${escape(data.toolName)}* is overdue: waiting longer than ${escape(data.reviewTargetMinutes)} min`,
  "call.expiring": (data) => `*${escape(data.toolName)}* expires at ${slackTime(data.expiresAt)} without a reviewer`,
  "call.expired": (data) =>
    data.mode === "mark"
      ? `*${escape(data.toolName)}* expired without a reviewer (marked; the agent was not told)`
      : `*${escape(data.toolName)}* expired without a reviewer`,
};

/** The events about a call that still waits: their message says since when. */
const WAITING = new Set<EventPayload["type"]>(["call.waiting", "call.overdue", "call.expiring"]);

/** The longest arguments a message shows (Slack refuses a section over 3,000 characters). */
export const SLACK_ARGUMENTS_MAX_LENGTH = 1_500;

/** A call's arguments (or what it asks for) as a code block: text, cut, with nothing Slack reads as markup. */
function callBlock(call: AgentRunToolCall): SlackBlock {
  const label = call.requiresApproval ? "Arguments" : "Asks for";
  let json = JSON.stringify(call.requiresApproval ? call.args : call.suspendPayload, null, 1) ?? "—";
  if (json.length > SLACK_ARGUMENTS_MAX_LENGTH) json = `${json.slice(0, SLACK_ARGUMENTS_MAX_LENGTH - 1)}…`;
  // Three backticks in a value would close the code block: a zero-width space keeps them apart.
  const text = escape(json).replace(/`(?=`)/g, "`\u200b");
  return { type: "section", text: { type: "mrkdwn", text: `*${label}*\n\`\`\`${text}\`\`\`` } };
}

/**
 * `call`: the waiting call as the store has it now, when the event is about a call that still waits:
 * the message shows its arguments and, when it waits for approval (not for input), the buttons a
 * reviewer linked to Slack decides it with.
 */
export function slackMessage(event: EventPayload, { call }: { call?: AgentRunToolCall | null } = {}): SlackMessage {
  const data = event.data;
  const runId = String(data.runId ?? "");
  const link = runLink(runId);
  const headline = HEADLINES[event.type](data);
  const since = data.waitingSince ?? event.timestamp;
  return {
    text: headline.replace(/\*/g, ""),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: link ? `${headline}\n<${link}|Open it in the console>` : headline } },
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: WAITING.has(event.type) ? `Waiting since ${slackTime(since)}` : `At ${slackTime(event.timestamp)}`,
        },
        fields: [
          field("Agent", data.agentId),
          field("Resource", data.resourceId),
          field("Thread", data.threadId),
          field("Tool", data.toolName),
        ],
      },
      ...(call && WAITING.has(event.type) ? [callBlock(call)] : []),
      { type: "context", elements: [{ type: "mrkdwn", text: `Run \`${escape(runId)}\` · call \`${escape(data.toolCallId)}\`` }] },
      ...(call?.requiresApproval && WAITING.has(event.type) ? [decisionButtons({ runId, toolCallId: String(data.toolCallId ?? "") })] : []),
    ],
  };
}

/** The event's call as it waits now, or null: the event is not about a waiting call, or the call no longer waits. */
export async function waitingCallOf(event: EventPayload, databaseUrl: string): Promise<AgentRunToolCall | null> {
  if (!WAITING.has(event.type)) return null;
  const run = await findSuspendedRun(String(event.data.runId ?? ""), databaseUrl);
  return run?.toolCalls.find((call) => call.toolCallId === event.data.toolCallId) ?? null;
}
