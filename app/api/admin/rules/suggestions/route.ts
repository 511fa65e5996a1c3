/** POST /api/admin/rules/suggestions { days?, minCalls?, maxWrongShare?, agentId?, toolName?, resourcePrefix?, page?, pageSize? } — rules suggested from history (lib/rules/proposals.ts). */
import { serveOperation } from "@/lib/actions/json-route";
import { suggestRulesOperation } from "@/lib/actions/rule-operations";

export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return serveOperation(request, suggestRulesOperation, { body: true });
}
