/**
 * GET /api/admin/users — every account (no passwords).
 * POST /api/admin/users { name, email, role, password? } — adds one (201); without a password one is
 * generated and answered this once, as `npm run users:create` prints it. Admins only, as /admin/users.
 */
import { serveOperation } from "@/lib/actions/json-route";
import { createUserWithPasswordOperation, listUsersOperation } from "@/lib/actions/user-operations";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveOperation(request, listUsersOperation);
}

export function POST(request: Request) {
  return serveOperation(request, createUserWithPasswordOperation, { body: true, status: 201 });
}
