/**
 * The Block Kit pieces of approving from Slack: the Approve / Decline buttons on a waiting approval
 * call's message (their value names the call and the message's language, nothing secret), the
 * decline-reason modal, and the message that replaces the original once the call is decided (no
 * buttons left), in the language of the message it replaces. Pure: no database.
 */
import type { Decision } from "../decisions/types.ts";
import { translatorFor } from "../i18n/catalogs.ts";
import type { Locale } from "../i18n/locales.ts";

/**
 * Words in one language (lib/i18n): a channel's messages in its endpoint's language, what only the
 * clicker sees (the modal, ephemeral replies) in theirs.
 */
export type SlackReader = ReturnType<typeof translatorFor>;
const ENGLISH: SlackReader = translatorFor(null);

export const APPROVE_ACTION = "approvals_approve";
export const DECLINE_ACTION = "approvals_decline";
export const DECLINE_VIEW = "approvals_decline_reason";
export const REASON_BLOCK = "reason";
export const REASON_INPUT = "reason";
/** The longest decline reason the modal lets a reviewer type (the console's own limit is larger). */
export const MAX_SLACK_REASON = 2000;
/** The slash command that links a Slack user, as replies quote it (the same in every language). */
export const LINK_COMMAND = "`/approvals link <code>`";

export interface CallRef {
  runId: string;
  toolCallId: string;
}

/** What a button's value carries: the call, and the language of the message it is on when not English. */
export interface ButtonValue extends CallRef {
  locale?: Locale;
}

/** Slack's mrkdwn treats these three as markup: an agent's tool name or a reviewer's text must not be. */
export const escapeMrkdwn = (text: unknown) =>
  String(text ?? "—")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");

/**
 * A time Slack shows in its reader's own language and time zone; the fallback (for clients that
 * cannot) is the ISO time in English, else the time in the message's language, in UTC.
 */
export function slackTime(iso: unknown, reader: SlackReader = ENGLISH): string {
  const time = Date.parse(String(iso));
  if (!Number.isFinite(time)) return escapeMrkdwn(iso);
  return `<!date^${Math.floor(time / 1000)}^{date_short_pretty} {time}|${escapeMrkdwn(plainTime(iso, reader))}>`;
}

/** A time as text: the ISO time in English (as it always was), else in the reader's language, in UTC. */
export function plainTime(iso: unknown, reader: SlackReader = ENGLISH): string {
  const at = new Date(String(iso));
  if (reader.locale === "en" || Number.isNaN(at.getTime())) return String(iso);
  return `${reader.format.dateTime(at, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" })} UTC`;
}

/** Approve and Decline, in the message's language; their value names the call and that language (not English). */
export function decisionButtons(call: CallRef, { t, locale }: SlackReader = ENGLISH) {
  const value = JSON.stringify({ runId: call.runId, toolCallId: call.toolCallId, ...(locale === "en" ? {} : { locale }) });
  return {
    type: "actions" as const,
    block_id: "approvals_decision",
    elements: [
      {
        type: "button" as const,
        action_id: APPROVE_ACTION,
        style: "primary" as const,
        text: { type: "plain_text" as const, text: t("slackMessage.approve") },
        value,
      },
      {
        type: "button" as const,
        action_id: DECLINE_ACTION,
        style: "danger" as const,
        text: { type: "plain_text" as const, text: t("slackMessage.decline") },
        value,
      },
    ],
  };
}

/** The modal Decline opens; `metadata` (private_metadata) carries the call and where to update the message. */
export function declineModal(toolName: string | null, metadata: string, { t }: SlackReader = ENGLISH) {
  return {
    type: "modal" as const,
    callback_id: DECLINE_VIEW,
    private_metadata: metadata,
    title: { type: "plain_text" as const, text: t("slack.declineTitle") },
    submit: { type: "plain_text" as const, text: t("slack.declineSubmit") },
    close: { type: "plain_text" as const, text: t("slack.cancel") },
    blocks: [
      {
        type: "input" as const,
        block_id: REASON_BLOCK,
        label: { type: "plain_text" as const, text: t("slack.declineLabel", { tool: toolName ?? t("slack.thisCall") }).slice(0, 2000) },
        element: { type: "plain_text_input" as const, action_id: REASON_INPUT, multiline: true, max_length: MAX_SLACK_REASON },
      },
    ],
  };
}

export interface DecidedCall extends CallRef {
  toolName: string | null;
  reviewer: string;
  action: Decision["action"] | string;
  decidedAt: string;
  reason: string | null;
}

/** What a decided call's message says instead, in the message's language: who decided what and when, and no buttons. */
export function decidedMessage(call: DecidedCall, reader: SlackReader = ENGLISH) {
  const { t } = reader;
  const tool = call.toolName ?? t("slackMessage.aToolCall");
  const headline = t("slackMessage.decidedBy", {
    tool: `*${escapeMrkdwn(tool)}*`,
    action: escapeMrkdwn(call.action),
    reviewer: escapeMrkdwn(call.reviewer),
    time: slackTime(call.decidedAt, reader),
  });
  const why = call.reason ? `\n${t("slackMessage.reason", { reason: escapeMrkdwn(call.reason) })}` : "";
  return {
    replace_original: true,
    text: t("slackMessage.decidedBy", { tool, action: call.action, reviewer: call.reviewer, time: plainTime(call.decidedAt, reader) }),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `${headline}${why}` } },
      { type: "context", elements: [{ type: "mrkdwn", text: runAndCall(call, reader) }] },
    ],
  };
}

/** "Run `…` · call `…`": which run and call a message is about. */
export function runAndCall(call: { runId: unknown; toolCallId: unknown }, { t }: SlackReader = ENGLISH): string {
  return t("slackMessage.runAndCall", { runId: escapeMrkdwn(call.runId), toolCallId: escapeMrkdwn(call.toolCallId) });
}

/** "already approved by X at T": the answer to a stale button (T as ISO in English, else in the reader's zone). */
export function alreadyDecidedText(prior: { reviewer: string; action: string; decidedAt: string }, reader: SlackReader = ENGLISH): string {
  const at = new Date(prior.decidedAt);
  const time =
    reader.locale === "en" || Number.isNaN(at.getTime())
      ? prior.decidedAt
      : reader.format.dateTime(at, { dateStyle: "medium", timeStyle: "medium" });
  return reader.t("slack.alreadyDecided", { action: prior.action, reviewer: prior.reviewer, time });
}
