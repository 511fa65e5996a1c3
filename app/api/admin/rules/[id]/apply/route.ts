/** POST /api/admin/rules/<id>/apply {} — applies the rule to the calls waiting now (lib/rules/apply.ts). */
import { serveOperation } from "@/lib/actions/json-route";
import { applyRuleOperation } from "@/lib/actions/rule-operations";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return serveOperation(request, applyRuleOperation, { body: true, path: { id: (await params).id } });
}
