/** PATCH /api/admin/users/<id> { role } — the page's role change, with its rules (never your own admin role, never the last admin). */
import { serveOperation } from "@/lib/actions/json-route";
import { setUserRoleOperation } from "@/lib/actions/user-operations";

export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return serveOperation(request, setUserRoleOperation, { body: true, path: { userId: (await params).id } });
}
