/**
 * PATCH /api/admin/service-accounts/<id> { disabled } — disables a service account (its tokens are
 * refused from the next request on every instance) or enables it again; each change is in the audit
 * log. Admins only; enabling takes a session (a token cannot). 404 service_account_not_found.
 */
import { serveOperation } from "@/lib/actions/json-route";
import { setServiceAccountDisabledOperation } from "@/lib/actions/token-operations";

export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return serveOperation(request, setServiceAccountDisabledOperation, { body: true, path: { id: (await params).id } });
}
