/**
 * GET /api/admin/service-accounts — every service account.
 * POST /api/admin/service-accounts { name, role } — a named principal for machines with a role of its
 * own (201); give it tokens with POST /api/admin/tokens { serviceAccountId }. Admins only.
 */
import { serveOperation } from "@/lib/actions/json-route";
import { createServiceAccountOperation, listServiceAccountsOperation } from "@/lib/actions/token-operations";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveOperation(request, listServiceAccountsOperation);
}

export function POST(request: Request) {
  return serveOperation(request, createServiceAccountOperation, { body: true, status: 201 });
}
