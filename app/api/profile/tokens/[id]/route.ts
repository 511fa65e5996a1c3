/** DELETE /api/profile/tokens/<id> {} — revokes one of your own tokens. 404 token_not_found for anyone else's. */
import { serveOperation } from "@/lib/actions/json-route";
import { revokeOwnTokenOperation } from "@/lib/actions/token-operations";

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return serveOperation(request, revokeOwnTokenOperation, { body: true, path: { id: (await params).id } });
}
