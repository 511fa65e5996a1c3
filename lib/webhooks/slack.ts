/**
 * The Slack preset: an endpoint flagged as Slack (an incoming-webhook URL) gets a Block Kit message
 * instead of the raw event: what waits (or what was decided), for which agent and customer, since
 * when, and a link to the run in the console (CONSOLE_URL, else BETTER_AUTH_URL).
 */
import type { EventPayload } from "../events/outbox.ts";
import { runLink } from "../links.ts";

type MrkdwnText = { type: "mrkdwn"; text: string };
export type SlackBlock = { type: "section"; text: MrkdwnText; fields?: MrkdwnText[] } | { type: "context"; elements: MrkdwnText[] };
export interface SlackMessage {
  /** What notifications and clients without blocks show. */
  text: string;
  blocks: SlackBlock[];
}

/** Slack's mrkdwn treats these three as markup: an agent's tool name or a customer id must not be. */
const escape = (text: unknown) =>
  String(text ?? "—")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");

const field = (label: string, value: unknown): MrkdwnText => ({ type: "mrkdwn", text: `*${label}*\n${escape(value)}` });

/** A time Slack shows in the reader's own time zone, with the ISO time as fallback. */
function slackTime(iso: unknown): string {
  const time = Date.parse(String(iso));
  if (!Number.isFinite(time)) return escape(iso);
  return `<!date^${Math.floor(time / 1000)}^{date_short_pretty} {time}|${escape(iso)}>`;
}

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

export function slackMessage(event: EventPayload): SlackMessage {
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
    ],
  };
}
