/**
 * The Block Kit pieces of approving from Slack: the Approve / Decline buttons on a waiting approval
 * call's message (their value names the call, nothing secret), the decline-reason modal, and the
 * message that replaces the original once the call is decided (no buttons left). Pure: no database.
 */
import { DECIDED, type Decision } from "../decisions/types.ts";
import { translatorFor } from "../i18n/catalogs.ts";

/** The clicker's words (lib/i18n): what only they see (the modal, ephemeral replies) is in their language. */
export type SlackReader = ReturnType<typeof translatorFor>;
const ENGLISH: SlackReader = translatorFor(null);

export const APPROVE_ACTION = "approvals_approve";
export const DECLINE_ACTION = "approvals_decline";
export const DECLINE_VIEW = "approvals_decline_reason";
export const REASON_BLOCK = "reason";
export const REASON_INPUT = "reason";
/** The longest decline reason the modal lets a reviewer type (the console's own limit is larger). */
export const MAX_SLACK_REASON = 2000;

export interface CallRef {
  runId: string;
  toolCallId: string;
}

/** Slack's mrkdwn treats these three as markup: an agent's tool name or a reviewer's text must not be. */
export const escapeMrkdwn = (text: unknown) =>
  String(text ?? "—")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");

/** A time Slack shows in the reader's own time zone, with the ISO time as fallback. */
export function slackTime(iso: unknown): string {
  const time = Date.parse(String(iso));
  if (!Number.isFinite(time)) return escapeMrkdwn(iso);
  return `<!date^${Math.floor(time / 1000)}^{date_short_pretty} {time}|${escapeMrkdwn(iso)}>`;
}

export function decisionButtons(call: CallRef) {
  const value = JSON.stringify({ runId: call.runId, toolCallId: call.toolCallId });
  return {
    type: "actions" as const,
    block_id: "approvals_decision",
    elements: [
      {
        type: "button" as const,
        action_id: APPROVE_ACTION,
        style: "primary" as const,
        text: { type: "plain_text" as const, text: "Approve" },
        value,
      },
      {
        type: "button" as const,
        action_id: DECLINE_ACTION,
        style: "danger" as const,
        text: { type: "plain_text" as const, text: "Decline" },
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

/** What a decided call's message says instead: who decided what and when, and no buttons. */
export function decidedMessage(call: DecidedCall) {
  const verb = DECIDED[call.action as Decision["action"]] ?? call.action;
  const headline = `*${escapeMrkdwn(call.toolName ?? "A tool call")}* was ${escapeMrkdwn(verb)} by ${escapeMrkdwn(call.reviewer)} at ${slackTime(call.decidedAt)}`;
  const why = call.reason ? `\nReason: ${escapeMrkdwn(call.reason)}` : "";
  return {
    replace_original: true,
    text: `${call.toolName ?? "A tool call"} was ${verb} by ${call.reviewer} at ${call.decidedAt}`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `${headline}${why}` } },
      {
        type: "context",
        elements: [{ type: "mrkdwn", text: `Run \`${escapeMrkdwn(call.runId)}\` · call \`${escapeMrkdwn(call.toolCallId)}\`` }],
      },
    ],
  };
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
