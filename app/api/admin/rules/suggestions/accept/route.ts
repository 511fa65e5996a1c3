/** POST /api/admin/rules/suggestions/accept { rule, days? } — creates a suggested rule, disabled, its backtest kept with version 1. */
import { serveOperation } from "@/lib/actions/json-route";
import { acceptSuggestedRuleOperation } from "@/lib/actions/rule-operations";

export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return serveOperation(request, acceptSuggestedRuleOperation, { body: true, status: 201 });
}
