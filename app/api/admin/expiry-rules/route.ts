/**
 * GET /api/admin/expiry-rules — every rule.
 * POST /api/admin/expiry-rules { agentId, toolName?, afterMinutes, mode?, warnMinutes? } — creates or replaces the rule of (agent, tool).
 * DELETE /api/admin/expiry-rules { agentId, toolName? } — removes it.
 * Admins only, as /admin/expiry (lib/actions/settings-operations.ts). A rule is named by its agent and tool, not an id: so are the bodies.
 */
import { serveOperation } from "@/lib/actions/json-route";
import { deleteExpiryRuleOperation, listExpiryRulesOperation, saveExpiryRuleOperation } from "@/lib/actions/settings-operations";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveOperation(request, listExpiryRulesOperation);
}

export function POST(request: Request) {
  return serveOperation(request, saveExpiryRuleOperation, { body: true });
}

export function DELETE(request: Request) {
  return serveOperation(request, deleteExpiryRuleOperation, { body: true });
}
