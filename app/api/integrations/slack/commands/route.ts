/**
 * POST /api/integrations/slack/commands — the Request URL of the `/approvals` slash command
 * (`/approvals link <code>`), signed like every request from Slack (lib/slack).
 */
import { openSlackRequest } from "@/lib/integrations/slack-gate";
import { handleCommand } from "@/lib/integrations/slack-commands";

export async function POST(request: Request) {
  const opened = await openSlackRequest(request);
  if (!opened.ok) return opened.response;
  return handleCommand(opened.form, opened.request);
}
