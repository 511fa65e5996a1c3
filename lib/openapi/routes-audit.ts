/** The OpenAPI declarations of the audit log's routes (routes.ts gathers every file's). */
import { verifyAuditChainOperation } from "../actions/audit-operations.ts";
import { chainVerificationSchema, evidenceBundleSchema } from "../audit/api-schemas.ts";
import { evidenceInput } from "../audit/evidence.ts";
import { READ_ERRORS, servedOperation, type RouteDoc } from "./declare.ts";

export const AUDIT_ROUTES: RouteDoc[] = [
  servedOperation(verifyAuditChainOperation, chainVerificationSchema, {
    method: "get",
    path: "/api/admin/audit/verify",
    tag: "Audit log",
    summary: "Walks the audit log's hash chain and names the first row changed, deleted or inserted out of order.",
    description:
      "200 either way: data.ok says whether the chain holds. With checkpointSeq and checkpointHash, the chain must still end in that hash there.",
  }),
  {
    method: "get",
    path: "/api/admin/evidence",
    tag: "Audit log",
    summary: "Oversight evidence for a period: a JSON bundle signed with EVIDENCE_SIGNING_KEY (HMAC-SHA256), or CSV with format=csv.",
    description: "Streamed. The audit chain is verified first; its result and head are in the bundle and in the X-Audit-Chain header.",
    caller: "signedIn",
    permission: "configure",
    query: evidenceInput,
    success: { status: 200, description: "The bundle (or, with format=csv, the decisions as CSV).", raw: evidenceBundleSchema, csv: true },
    errors: [...READ_ERRORS, "forbidden", "evidence_not_configured"],
  },
];
