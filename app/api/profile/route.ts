/**
 * GET /api/profile — the signed-in user (any role): name, email, role, and the language and time zone /profile shows (null: the browser's).
 * PATCH /api/profile { locale?, timeZone? } — changes them, as /profile's Language and Time zone do ("" for the browser's); the rest stays.
 */
import { serveOperation } from "@/lib/actions/json-route";
import { readProfileOperation, setLanguagePreferenceOperation } from "@/lib/actions/user-operations";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveOperation(request, readProfileOperation);
}

export function PATCH(request: Request) {
  return serveOperation(request, setLanguagePreferenceOperation, { body: true });
}
