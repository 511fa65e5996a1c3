/** DELETE /api/admin/tokens/<id> {} — revokes any token, at once on every instance. 404 token_not_found. */
import { serveOperation } from "@/lib/actions/json-route";
import { revokeTokenOperation } from "@/lib/actions/token-operations";

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return serveOperation(request, revokeTokenOperation, { body: true, path: { id: (await params).id } });
}
