/**
 * A click in Slack, after the gate (slack-gate.ts) took its signature: Approve decides at once, Decline
 * opens a modal for the reason and its submission declines. Every decision goes through the
 * console's own path (lib/actions/run-decision.ts: permissions, refusal budget, first-wins record,
 * carry-out, audit) as the linked console account, recorded via "slack". The message is then
 * replaced through the interaction's response_url (who decided what and when, no buttons); a
 * refusal or a stale button is answered in an ephemeral reply and changes nothing.
 *
 * Slack shows the clicker an error when its request is not answered within 3 seconds, and carrying
 * a decision out through the agent can take longer. So a decision still running after
 * ANSWER_SLACK_WITHIN.ms is answered with the empty 200 at once and finishes on its own: the
 * decision is recorded first (a crash after that is recovered like any other), and its outcome
 * reaches the clicker through response_url as it would have.
 *
 * Languages: the message that replaces the original is in the original's (its buttons carry it).
 * What only the clicker sees is in their /profile language, else the message's; a Slack user not
 * linked yet, whom the console cannot ask, is answered in the language of the message they clicked.
 */
import { NextResponse } from "next/server";
import { authorize } from "../actions/authorize.ts";
import type { ActionError, ActionResult } from "../actions/result.ts";
import { auditRefusal, runDecision, type DecisionRequest } from "../actions/run-decision.ts";
import { runAs } from "../auth/session.ts";
import { getDb } from "../db/client.ts";
import { approveInput, declineInput } from "../decisions/inputs.ts";
import type { ApprovalProgress, DecisionOutcome } from "../decisions/types.ts";
import { findSuspendedRun } from "../runs/run-detail.ts";
import {
  alreadyDecidedText,
  APPROVE_ACTION,
  DECLINE_ACTION,
  DECLINE_VIEW,
  decidedMessage,
  LINK_COMMAND,
  declineModal,
  type SlackReader,
  REASON_BLOCK,
  type CallRef,
} from "../slack/blocks.ts";
import { linkedActor } from "../slack/links.ts";
import {
  buttonValue,
  declineMetadata,
  interactionPayload,
  parseJson,
  slackAccountOf,
  type BlockActionsPayload,
  type ViewSubmissionPayload,
} from "../slack/payloads.ts";
import { openView, respond, respondEphemeral } from "../slack/web.ts";
import { translatorFor } from "../i18n/catalogs.ts";
import type { Locale } from "../i18n/locales.ts";
import { languagePreferenceOf } from "../i18n/preferences.ts";

/** What an unlinked Slack user is told, in the message's language; the audit log keeps the English. */
const notLinked = ({ t }: SlackReader) => t("slack.notLinked", { command: LINK_COMMAND });
const NOT_LINKED = notLinked(translatorFor(null));

/** Slack wants a quick empty 200 for a click it delivered; what the clicker sees goes through response_url. */
const acknowledged = () => new NextResponse(null, { status: 200 });

/** How long a request waits for its decision before answering Slack (which gives up at 3 s). Tests lower it. */
export const ANSWER_SLACK_WITHIN = { ms: 2_500 };

/**
 * Answers with `onTime(value)` when `work` is done within ANSWER_SLACK_WITHIN; otherwise answers
 * the empty 200 now and hands the value to `late` when the work is done.
 */
async function answerInTime<T>(
  work: Promise<T>,
  onTime: (value: T) => Promise<NextResponse>,
  late: (value: T) => Promise<void>,
): Promise<NextResponse> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ANSWER_SLACK_WITHIN.ms);
  });
  const first = await Promise.race([work.then((value) => ({ value })), deadline]);
  clearTimeout(timer);
  if (first !== "late") return onTime(first.value);
  work.then(late).catch((error: unknown) => console.error("[slack] a decision answered after Slack's deadline failed to report:", error));
  return acknowledged();
}

export async function handleInteraction(form: URLSearchParams, request: DecisionRequest): Promise<NextResponse> {
  const parsed = interactionPayload.safeParse(parseJson(form.get("payload")));
  if (!parsed.success) return refuseInput(request, "The request holds no Slack interaction this console answers.");
  const payload = parsed.data;
  // Signed by Slack: from here a refusal counts against this Slack user, not against the address all
  // of Slack's requests share (an unlinked user clicking on must not use up everyone's budget).
  const account = slackAccountOf(payload);
  const bySlackUser = { ...request, client: { key: `slack:${account.teamId}:${account.slackUserId}`, anonymous: true } };
  return payload.type === "block_actions" ? handleClick(payload, bySlackUser) : handleDeclineSubmission(payload, bySlackUser);
}

async function handleClick(payload: BlockActionsPayload, request: DecisionRequest): Promise<NextResponse> {
  const action = payload.actions[0]!;
  const value = buttonValue.safeParse(parseJson(action.value));
  if (![APPROVE_ACTION, DECLINE_ACTION].includes(action.action_id) || !value.success) {
    return refuseInput(request, "The click names no call this console knows how to decide.");
  }
  const { locale: messageLocale, ...ref } = value.data;
  const message = translatorFor(messageLocale);
  const verb = action.action_id === APPROVE_ACTION ? "approve" : "decline";
  const actor = await linkedActor(slackAccountOf(payload));
  if (!actor) {
    await auditRefusal(request, verb, ref, { code: "slack_not_linked", message: NOT_LINKED });
    await respondEphemeral(payload.response_url, notLinked(message));
    return acknowledged();
  }
  const reader = await readerOf(actor.id, messageLocale);
  if (verb === "approve") {
    const reportIt = (result: ActionResult<DecisionOutcome>) => report(result, ref, payload.response_url, reader, message);
    return answerInTime(
      runAs(actor, () => runDecision("approve", approveInput, ref, "slack", request.address)),
      async (result) => {
        await reportIt(result);
        return acknowledged();
      },
      reportIt,
    );
  }
  // Decline: the same permission check before the modal, so a support user is told at once.
  const access = await runAs(actor, () => authorize("decide"));
  if (!access.ok) {
    await auditRefusal({ ...request, actor }, "decline", ref, access.error);
    await respondEphemeral(payload.response_url, errorText(access.error, reader));
    return acknowledged();
  }
  const prior = await priorDecision(ref);
  if (prior) {
    await respondEphemeral(payload.response_url, alreadyDecidedText(prior, reader));
    return acknowledged();
  }
  const metadata = JSON.stringify({ ...value.data, responseUrl: payload.response_url });
  const problem = await openView(payload.trigger_id, declineModal(await toolNameOf(ref), metadata, reader));
  if (problem) await respondEphemeral(payload.response_url, problem);
  return acknowledged();
}

async function handleDeclineSubmission(payload: ViewSubmissionPayload, request: DecisionRequest): Promise<NextResponse> {
  const metadata = declineMetadata.safeParse(parseJson(payload.view.private_metadata));
  if (payload.view.callback_id !== DECLINE_VIEW || !metadata.success) {
    return refuseInput(request, "The form names no call this console knows how to decline.");
  }
  const { responseUrl, locale: messageLocale, ...call } = metadata.data;
  const message = translatorFor(messageLocale);
  const actor = await linkedActor(slackAccountOf(payload));
  if (!actor) {
    await auditRefusal(request, "decline", call, { code: "slack_not_linked", message: NOT_LINKED });
    return formError(notLinked(message));
  }
  const reason = Object.values(payload.view.state.values[REASON_BLOCK] ?? {})[0]?.value ?? "";
  const reader = await readerOf(actor.id, messageLocale);
  return answerInTime(
    runAs(actor, () => runDecision("decline", declineInput, { ...call, reason }, "slack", request.address)),
    // In time: a refusal keeps the modal open with the reason why.
    async (result) => {
      if (!result.ok) return formError(errorText(result.error, reader));
      await replaceWithDecision(call, responseUrl, message);
      return acknowledged();
    },
    // Late: the modal has closed; the outcome goes where an approval's does.
    (result) => report(result, call, responseUrl, reader, message),
  );
}

/** After a decision: the message shows it (in its own language, `message`); after a refusal: the clicker is told why (`reader`). */
async function report(
  result: ActionResult<DecisionOutcome>,
  call: CallRef,
  responseUrl: string,
  reader: SlackReader,
  message: SlackReader,
): Promise<void> {
  // One approval of a call that needs several: the message keeps its buttons for the other approvers.
  if (result.ok && result.data.runState === "awaiting-approvals") {
    await respondEphemeral(responseUrl, approvalCountsText(result.data.approvals, reader));
    return;
  }
  if (result.ok) await replaceWithDecision(call, responseUrl, message);
  else await respondEphemeral(responseUrl, errorText(result.error, reader));
}

/** "Your approval counts: 1 of 2 approvals (alice). Another reviewer must …", in the clicker's language. */
function approvalCountsText(approvals: ApprovalProgress | undefined, reader: SlackReader): string {
  if (!approvals) return reader.t("slack.approvalCountsNoProgress");
  const names = approvals.approvals.map((approval) => approval.reviewer);
  const count = names.length;
  const progress = names.length
    ? reader.t("decision.approvalProgressBy", { count, required: approvals.required, names: names.join(", ") })
    : reader.t("decision.approvalProgress", { count, required: approvals.required });
  return reader.t("slack.approvalCounts", { progress });
}

/** The linked user's language and zone (their /profile choice; else the message's language), for what only they see. */
async function readerOf(userId: string, messageLocale: Locale | undefined): Promise<SlackReader> {
  const { locale, timeZone } = await languagePreferenceOf(userId);
  return translatorFor(locale ?? messageLocale, timeZone);
}

/** The server's English message, or in another language the catalog's sentence for the code. */
function errorText(error: ActionError, reader: SlackReader): string {
  if (error.code === "already_decided" && error.priorDecision) return alreadyDecidedText(error.priorDecision, reader);
  const message = reader.locale === "en" ? error.message : reader.t(`errors.${error.code}`);
  if (error.code === "agent_failed" || error.code === "internal") return message;
  return `${message} ${reader.t("slack.nothingDecided")}`;
}

async function replaceWithDecision(call: CallRef, responseUrl: string, message: SlackReader): Promise<void> {
  const db = await getDb();
  const decision = await db.toolCallDecision.findUnique({ where: { runId_toolCallId: call } });
  if (!decision) return;
  await respond(responseUrl, decidedMessage({ ...decision, decidedAt: decision.decidedAt.toISOString() }, message));
}

/** The decision that holds the call, if any (a released one no longer does). */
async function priorDecision(call: CallRef) {
  const db = await getDb();
  const decision = await db.toolCallDecision.findUnique({ where: { runId_toolCallId: call } });
  if (!decision || decision.state === "released") return null;
  return { reviewer: decision.reviewer, action: decision.action, decidedAt: decision.decidedAt.toISOString() };
}

async function toolNameOf(call: CallRef): Promise<string | null> {
  const run = await findSuspendedRun(call.runId);
  return run?.toolCalls.find((candidate) => candidate.toolCallId === call.toolCallId)?.toolName ?? null;
}

/** The modal stays open and shows `text` under the reason field. */
function formError(text: string): NextResponse {
  return NextResponse.json({ response_action: "errors", errors: { [REASON_BLOCK]: text.slice(0, 2000) } });
}

async function refuseInput(request: DecisionRequest, message: string): Promise<NextResponse> {
  const error: ActionError = { code: "invalid_input", message };
  await auditRefusal(request, "unknown", undefined, error);
  return NextResponse.json({ ok: false, error }, { status: 400 });
}
