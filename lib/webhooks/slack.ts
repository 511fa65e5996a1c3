/**
 * The Slack preset: an endpoint flagged as Slack (an incoming-webhook URL) gets a Block Kit message
 * instead of the raw event: what waits (or what was decided), for which agent and customer, since
 * when, and a link to the run in the console (CONSOLE_URL, else BETTER_AUTH_URL). A waiting call
 * that asks for approval also gets Approve and Decline buttons (lib/slack: answered at
 * POST /api/integrations/slack/interactions); an input request keeps only the link.
 */
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

/**
 * `approval`: the call waits for approval (not for input), so a reviewer linked to Slack can decide
 * it from the message; the buttons go only on the events of a call that still waits.
 */
export function slackMessage(event: EventPayload, { approval = false }: { approval?: boolean } = {}): SlackMessage {
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
      { type: "context", elements: [{ type: "mrkdwn", text: `Run \`${escape(runId)}\` · call \`${escape(data.toolCallId)}\`` }] },
      ...(approval && WAITING.has(event.type) ? [decisionButtons({ runId, toolCallId: String(data.toolCallId ?? "") })] : []),
    ],
  };
}

/** Whether the event's call still waits for approval (not for input): its message gets the buttons. */
export async function awaitsApproval(event: EventPayload, databaseUrl: string): Promise<boolean> {
  if (!WAITING.has(event.type)) return false;
  const run = await findSuspendedRun(String(event.data.runId ?? ""), databaseUrl);
  return run?.toolCalls.find((call) => call.toolCallId === event.data.toolCallId)?.requiresApproval === true;
}
