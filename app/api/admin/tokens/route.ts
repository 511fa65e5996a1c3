/**
 * GET /api/admin/tokens — every API token (never its secret) and every service account.
 * POST /api/admin/tokens { name, scopes, expiresInDays?, serviceAccountId? } — a token for you or for a
 * service account (201), its secret answered this once as `token`. Admins only, with a session: a
 * token cannot create tokens.
 */
import { serveOperation } from "@/lib/actions/json-route";
import { createTokenOperation, listTokensOperation } from "@/lib/actions/token-operations";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveOperation(request, listTokensOperation);
}

export function POST(request: Request) {
  return serveOperation(request, createTokenOperation, { body: true, status: 201 });
}
