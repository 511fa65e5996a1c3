/** POST /api/admin/rules/dry-run { rule, page?, pageSize? } — what the rule would do to the calls waiting now (lib/rules/waiting-calls.ts). */
import { serveOperation } from "@/lib/actions/json-route";
import { dryRunRuleOperation } from "@/lib/actions/rule-operations";

export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return serveOperation(request, dryRunRuleOperation, { body: true });
}
