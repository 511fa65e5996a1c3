/**
 * The slash command `/approvals`, after the gate (slack-gate.ts) took its signature: `link <code>` links
 * the Slack user (and team) to the console account whose code it is (lib/slack/links.ts). A wrong, used or
 * expired code is refused and counted against the Slack user's refusal budget, so codes cannot be
 * guessed at speed. Answers are ephemeral: only the sender sees them. A sender not linked yet is one
 * the console cannot ask for a language (a slash command carries none): they are answered in the
 * language of the console's Slack channels when every enabled Slack endpoint has the same one,
 * else English; once linked, in their account's.
 */
import { NextResponse } from "next/server";
import { admitRequest } from "../audit/refusal-limit.ts";
import { auditRefusal, type DecisionRequest } from "../actions/run-decision.ts";
import { LINK_COMMAND } from "../slack/blocks.ts";
import { redeemLinkCode } from "../slack/links.ts";
import { slashCommand } from "../slack/payloads.ts";
import { translatorFor } from "../i18n/catalogs.ts";
import { languagePreferenceOf } from "../i18n/preferences.ts";
import { slackChannelsLocale } from "../webhooks/endpoints.ts";

const reply = (text: string) => NextResponse.json({ response_type: "ephemeral", text });

export async function handleCommand(form: URLSearchParams, request: DecisionRequest): Promise<NextResponse> {
  const parsed = slashCommand.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    await auditRefusal(request, "unknown", undefined, { code: "invalid_input", message: "The request holds no Slack slash command." });
    return NextResponse.json(
      { ok: false, error: { code: "invalid_input", message: "The request holds no Slack slash command." } },
      { status: 400 },
    );
  }
  const command = parsed.data;
  const match = /^\s*link\s+(\S+)\s*$/i.exec(command.text);
  // Not linked yet (or linking now): the language of the console's Slack channels, else English.
  const sender = translatorFor(await slackChannelsLocale());
  if (!match) return reply(sender.t("slack.usage", { command: LINK_COMMAND }));
  // Counted per Slack user (and by address in the gate): a wrong code uses up their refusals.
  const slackClient = { ...request, client: { key: `slack:${command.team_id}:${command.user_id}`, anonymous: true } };
  const admission = admitRequest(slackClient.client);
  if (admission.limited) return reply(sender.t("slack.tooManyCodes", { seconds: admission.retryAfterSeconds }));
  const linked = await redeemLinkCode(match[1]!, { teamId: command.team_id, slackUserId: command.user_id });
  if (!linked.ok) {
    await auditRefusal(slackClient, "unknown", undefined, { code: "invalid_input", message: `Slack link refused: ${linked.message}` });
    return reply(sender.t("slack.codeRefused"));
  }
  // Linked, the sender is an account: told in its language.
  const { t } = translatorFor((await languagePreferenceOf(linked.userId)).locale);
  return reply(t("slack.linked", { email: linked.email }));
}
