/**
 * GET /api/profile/tokens — your own API tokens (never their secrets).
 * POST /api/profile/tokens { name, scopes, expiresInDays? } — a token that acts as you, never above
 * your role (201), its secret answered this once as `token`. Any role, with a session.
 */
import { serveOperation } from "@/lib/actions/json-route";
import { createOwnTokenOperation, listOwnTokensOperation } from "@/lib/actions/token-operations";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveOperation(request, listOwnTokensOperation);
}

export function POST(request: Request) {
  return serveOperation(request, createOwnTokenOperation, { body: true, status: 201 });
}
