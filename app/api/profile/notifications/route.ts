/**
 * GET /api/profile/notifications — the signed-in user's email choice (any role), as /profile shows it.
 * PUT /api/profile/notifications { email: "immediate" | "hourly" | "off" } — changes it; only for who may decide, as the page.
 */
import { serveOperation } from "@/lib/actions/json-route";
import { readNotificationPreferenceOperation, setNotificationPreferenceOperation } from "@/lib/actions/user-operations";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveOperation(request, readNotificationPreferenceOperation);
}

export function PUT(request: Request) {
  return serveOperation(request, setNotificationPreferenceOperation, { body: true });
}
