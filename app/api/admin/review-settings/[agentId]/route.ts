/** PUT /api/admin/review-settings/<agentId> { onlyAssigneeDecides?, allowTrust? } — the switches on /admin/agents (either alone changes only itself). */
import { serveOperation } from "@/lib/actions/json-route";
import { saveReviewSettingOperation } from "@/lib/actions/settings-operations";

export async function PUT(request: Request, { params }: { params: Promise<{ agentId: string }> }) {
  return serveOperation(request, saveReviewSettingOperation, { body: true, path: { agentId: (await params).agentId } });
}
