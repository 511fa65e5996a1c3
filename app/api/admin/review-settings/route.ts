/** GET /api/admin/review-settings — every agent the console serves with its "only the assignee decides" and "allow trust", as /admin/agents shows them. */
import { serveOperation } from "@/lib/actions/json-route";
import { listReviewSettingsOperation } from "@/lib/actions/settings-operations";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveOperation(request, listReviewSettingsOperation);
}
