/** POST /api/admin/rules/backtest { rule, days?, include?, page?, pageSize? } — what the rule would have decided over the last `days` days (lib/rules/backtest.ts). */
import { serveOperation } from "@/lib/actions/json-route";
import { backtestRuleOperation } from "@/lib/actions/rule-operations";

export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return serveOperation(request, backtestRuleOperation, { body: true });
}
