/**
 * GET /api/admin/rules/<id> — the rule's kept versions, newest first.
 * PUT /api/admin/rules/<id> { …every field, as POST /api/admin/rules } — a new version.
 * DELETE /api/admin/rules/<id> {} — deletes it (its versions are kept). 404 rule_not_found.
 */
import { serveOperation } from "@/lib/actions/json-route";
import { deleteRuleOperation, ruleVersionsOperation, updateRuleOperation } from "@/lib/actions/rule-operations";

export const dynamic = "force-dynamic";
type Context = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Context) {
  return serveOperation(request, ruleVersionsOperation, { path: { id: (await params).id } });
}

export async function PUT(request: Request, { params }: Context) {
  return serveOperation(request, updateRuleOperation, { body: true, path: { id: (await params).id } });
}

export async function DELETE(request: Request, { params }: Context) {
  return serveOperation(request, deleteRuleOperation, { body: true, path: { id: (await params).id } });
}
