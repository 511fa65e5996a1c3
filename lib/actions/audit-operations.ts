/** The audit log's own checks, for admins: GET /api/admin/audit/verify and the history page's verification. */
import { z } from "zod";
import { getDb } from "../db/client.ts";
import { verifyAuditChain } from "../audit/verify.ts";
import { operation } from "./operation.ts";

const HASH = /^[0-9a-f]{64}$/;

export const checkpointInput = z
  .object({
    /** A saved checkpoint (an `audit.checkpoint` event's seq and hash): the log must still end in it at that place. */
    checkpointSeq: z.coerce.number({ error: "checkpointSeq must be a whole number" }).int().min(1).max(2_147_483_647).optional(),
    checkpointHash: z.string().regex(HASH, "checkpointHash must be 64 lowercase hex digits").optional(),
  })
  .strict()
  .refine((input) => (input.checkpointSeq === undefined) === (input.checkpointHash === undefined), {
    message: "checkpointSeq and checkpointHash go together",
  });

export const verifyAuditChainOperation = operation({
  name: "verifyAuditChain",
  permission: "configure",
  input: checkpointInput,
  run: async ({ checkpointSeq, checkpointHash }) =>
    verifyAuditChain(await getDb(), {
      checkpoint: checkpointSeq !== undefined && checkpointHash ? { seq: checkpointSeq, hash: checkpointHash } : undefined,
    }),
});
