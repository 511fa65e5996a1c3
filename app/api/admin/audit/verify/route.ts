/**
 * GET /api/admin/audit/verify[?checkpointSeq=&checkpointHash=] — walks the audit log's hash chain and
 * names the first row changed, deleted or inserted out of order (lib/audit/verify.ts). Admins only.
 * Answers 200 either way: `data.ok` says whether the chain holds, `data.problem` what broke it.
 */
import { serveOperation } from "@/lib/actions/json-route";
import { verifyAuditChainOperation } from "@/lib/actions/audit-operations";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveOperation(request, verifyAuditChainOperation);
}
