"use server";

import { verifyAuditChainOperation } from "./audit-operations.ts";
import { actionOf } from "./define-action.ts";

/** "Verify now" on /history (admins): the walk GET /api/admin/audit/verify makes. */
export const verifyAuditChain = actionOf(verifyAuditChainOperation);
