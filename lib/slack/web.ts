/**
 * What the console sends back to Slack: messages to an interaction's `response_url` (an ephemeral
 * reply to the clicker, or the decided message replacing the original), and the decline modal
 * through the Web API's `views.open` (@slack/web-api, with SLACK_BOT_TOKEN).
 *
 * SLACK_API_URL replaces https://slack.com/api/ for the Web API, and a response_url is only
 * followed on hooks.slack.com or on SLACK_API_URL's own origin: the tests point both at a stand-in
 * for Slack on loopback. Leave it unset in production.
 */
import { WebClient } from "@slack/web-api";

const SLACK_HOOKS = "https://hooks.slack.com/";
const TIMEOUT_MS = 10_000;

export const signingSecret = (): string | null => process.env.SLACK_SIGNING_SECRET || null;

function apiUrl(): string {
  const url = process.env.SLACK_API_URL || "https://slack.com/api/";
  return url.endsWith("/") ? url : `${url}/`;
}

/** Whether `url` is a response_url the console may post to: Slack's, or the configured stand-in's. */
export function isResponseUrl(url: string): boolean {
  if (url.startsWith(SLACK_HOOKS)) return true;
  if (!process.env.SLACK_API_URL) return false;
  try {
    return new URL(url).origin === new URL(apiUrl()).origin;
  } catch {
    return false;
  }
}

/** Posts `message` to the interaction's response_url; false (logged) when Slack did not take it. */
export async function respond(responseUrl: string, message: Record<string, unknown>): Promise<boolean> {
  if (!isResponseUrl(responseUrl)) {
    console.error("[slack] response_url refused: not on hooks.slack.com");
    return false;
  }
  try {
    const response = await fetch(responseUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) console.error(`[slack] response_url answered ${response.status}`);
    return response.ok;
  } catch (error) {
    console.error("[slack] response_url failed:", (error as Error).message);
    return false;
  }
}

/** An ephemeral reply: only the clicker sees it, and the original message stays as it was. */
export const respondEphemeral = (responseUrl: string, text: string) =>
  respond(responseUrl, { response_type: "ephemeral", replace_original: false, text });

/** Opens a modal for the interaction's trigger_id (views.open); the error's text when Slack refused. */
export async function openView(triggerId: string, view: Record<string, unknown>): Promise<string | null> {
  const token = process.env.SLACK_BOT_TOKEN;
  if (!token) return "SLACK_BOT_TOKEN is not set on this console: it cannot open the decline form. Decline in the console.";
  const client = new WebClient(token, { slackApiUrl: apiUrl(), retryConfig: { retries: 0 }, timeout: TIMEOUT_MS });
  try {
    // The view's own type is Slack's; the blocks module builds a valid one.
    await client.views.open({ trigger_id: triggerId, view: view as unknown as Parameters<typeof client.views.open>[0]["view"] });
    return null;
  } catch (error) {
    console.error("[slack] views.open failed:", (error as Error).message);
    return "Slack did not open the decline form. Try again, or decline in the console.";
  }
}
