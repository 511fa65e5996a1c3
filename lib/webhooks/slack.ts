/**
 * The Slack preset: an endpoint flagged as Slack (an incoming-webhook URL) gets a Block Kit message
 * instead of the raw event: what waits (or what was decided), for which agent and customer, since
 * when, and a link to the run in the console (CONSOLE_URL, else BETTER_AUTH_URL). A call that still
 * waits shows what it would do: its arguments (or, for an input request, what it asks for), so that
 * nobody approves from Slack blind. A waiting call that asks for approval also gets Approve and
 * Decline buttons (lib/slack: answered at POST /api/integrations/slack/interactions); an input
 * request keeps only the link. Every word is the catalogs' (slackMessage.*) in the endpoint's
 * language (default English); times are Slack's own date tokens, which each reader sees in their
 * Slack language and zone.
 */
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";
import type { EventPayload } from "../events/outbox.ts";
import { runLink } from "../links.ts";
import { findSuspendedRun } from "../runs/run-detail.ts";
import { translatorFor } from "../i18n/catalogs.ts";
import type { Locale } from "../i18n/locales.ts";
import { decisionButtons, escapeMrkdwn as escape, runAndCall, slackTime, type SlackReader } from "../slack/blocks.ts";

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
const bold = (value: unknown) => `*${escape(value)}*`;

type Headline = (data: Record<string, unknown>, reader: SlackReader) => string;
const HEADLINES: Record<EventPayload["type"], Headline> = {
  "call.waiting": (data, { t }) => t("slackMessage.waiting", { tool: bold(data.toolName) }),
  "call.assigned": (data, { t }) =>
    t("slackMessage.assigned", { tool: bold(data.toolName), assignee: escape(data.assigneeEmail), by: escape(data.assignedBy) }),
  "call.decided": (data, { t }) =>
    data.decidedBy === "outside"
      ? // Nobody here saw what was decided: say where, and how the run left, never an action it does not know.
        t("slackMessage.decidedOutside", { tool: bold(data.toolName), runEnded: data.runEnded ? "yes" : "no" })
      : t("slackMessage.decided", {
          tool: bold(data.toolName),
          action: escape(data.action),
          reviewer: escape(data.reviewer),
          state: escape(data.state),
        }),
  "call.overdue": (data, { t }) => t("slackMessage.overdue", { tool: bold(data.toolName), minutes: escape(data.reviewTargetMinutes) }),
  "call.expiring": (data, reader) =>
    reader.t("slackMessage.expiring", { tool: bold(data.toolName), time: slackTime(data.expiresAt, reader) }),
  "call.expired": (data, { t }) =>
    t(data.mode === "mark" ? "slackMessage.expiredMarked" : "slackMessage.expired", { tool: bold(data.toolName) }),
  "audit.checkpoint": (data, { t }) => t("slackMessage.auditCheckpoint", { seq: escape(data.seq), hash: escape(data.hash) }),
};

/** The events about a call that still waits: their message says since when. */
const WAITING = new Set<EventPayload["type"]>(["call.waiting", "call.overdue", "call.expiring"]);

/** The longest arguments a message shows (Slack refuses a section over 3,000 characters). */
export const SLACK_ARGUMENTS_MAX_LENGTH = 1_500;

/** A call's arguments (or what it asks for) as a code block: text, cut, with nothing Slack reads as markup. */
function callBlock(call: AgentRunToolCall, { t }: SlackReader): SlackBlock {
  const label = t(call.requiresApproval ? "slackMessage.arguments" : "slackMessage.asksFor");
  let json = JSON.stringify(call.requiresApproval ? call.args : call.suspendPayload, null, 1) ?? "—";
  if (json.length > SLACK_ARGUMENTS_MAX_LENGTH) json = `${json.slice(0, SLACK_ARGUMENTS_MAX_LENGTH - 1)}…`;
  // Three backticks in a value would close the code block: a zero-width space keeps them apart.
  const text = escape(json).replace(/`(?=`)/g, "`\u200b");
  return { type: "section", text: { type: "mrkdwn", text: `*${label}*\n\`\`\`${text}\`\`\`` } };
}

/**
 * `call`: the waiting call as the store has it now, when the event is about a call that still waits:
 * the message shows its arguments and, when it waits for approval (not for input), the buttons a
 * reviewer linked to Slack decides it with. `locale`: the endpoint's language (default English).
 */
export function slackMessage(
  event: EventPayload,
  { call, locale }: { call?: AgentRunToolCall | null; locale?: Locale | null } = {},
): SlackMessage {
  const reader = translatorFor(locale);
  const { t } = reader;
  const data = event.data;
  const runId = String(data.runId ?? "");
  const link = runLink(runId);
  const headline = HEADLINES[event.type](data, reader);
  const since = data.waitingSince ?? event.timestamp;
  return {
    text: headline.replace(/\*/g, ""),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: link ? `${headline}\n<${link}|${t("slackMessage.openInConsole")}>` : headline } },
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: WAITING.has(event.type)
            ? t("slackMessage.waitingSince", { time: slackTime(since, reader) })
            : t("slackMessage.at", { time: slackTime(event.timestamp, reader) }),
        },
        fields: [
          field(t("slackMessage.agent"), data.agentId),
          field(t("slackMessage.resource"), data.resourceId),
          field(t("slackMessage.thread"), data.threadId),
          field(t("slackMessage.tool"), data.toolName),
        ],
      },
      ...(call && WAITING.has(event.type) ? [callBlock(call, reader)] : []),
      { type: "context", elements: [{ type: "mrkdwn", text: runAndCall({ runId, toolCallId: data.toolCallId }, reader) }] },
      ...(call?.requiresApproval && WAITING.has(event.type)
        ? [decisionButtons({ runId, toolCallId: String(data.toolCallId ?? "") }, reader)]
        : []),
    ],
  };
}

/** The event's call as it waits now, or null: the event is not about a waiting call, or the call no longer waits. */
export async function waitingCallOf(event: EventPayload, databaseUrl: string): Promise<AgentRunToolCall | null> {
  if (!WAITING.has(event.type)) return null;
  const run = await findSuspendedRun(String(event.data.runId ?? ""), databaseUrl);
  return run?.toolCalls.find((call) => call.toolCallId === event.data.toolCallId) ?? null;
}
