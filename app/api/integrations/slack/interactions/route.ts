/**
 * POST /api/integrations/slack/interactions — Slack's Interactivity Request URL: Approve and Decline
 * clicks and the decline modal's submission, signed with the app's signing secret (lib/slack).
 */
import { openSlackRequest } from "@/lib/integrations/slack-gate";
import { handleInteraction } from "@/lib/integrations/slack-interactions";

export async function POST(request: Request) {
  const opened = await openSlackRequest(request);
  if (!opened.ok) return opened.response;
  return handleInteraction(opened.form, opened.request);
}
