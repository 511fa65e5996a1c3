/**
 * GET /api/admin/rules — every rule, in order (first match wins).
 * POST /api/admin/rules { name, enabled?, agentId?, toolName?, resource?, resourceMatch?, callKind?, conditions?, effect, reason?, approvals?, risk?, position? } — creates one (201).
 * Admins only, as /admin/rules (lib/actions/rule-operations.ts).
 */
import { serveOperation } from "@/lib/actions/json-route";
import { createRuleOperation, listRulesOperation } from "@/lib/actions/rule-operations";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveOperation(request, listRulesOperation);
}

export function POST(request: Request) {
  return serveOperation(request, createRuleOperation, { body: true, status: 201 });
}
