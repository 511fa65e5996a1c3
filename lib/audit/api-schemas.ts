/** The answers of the audit log's routes, for the OpenAPI document (lib/openapi/routes-audit.ts). */
import { z } from "zod";

const problemSchema = z.object({
  kind: z.enum(["changed", "deleted", "inserted", "rewritten"]),
  id: z.number().int().nullable(),
  seq: z.number().int().nullable(),
  message: z.string(),
});

export const chainVerificationSchema = z.object({
  ok: z.boolean(),
  rows: z.number().int(),
  head: z.object({ seq: z.number().int(), hash: z.string() }),
  startedAt: z.string(),
  legacyRows: z.number().int(),
  problem: problemSchema.nullable(),
  checkedAt: z.string(),
});

/** The signed evidence bundle (lib/audit/evidence.ts; docs/evidence.md describes every field). */
export const evidenceBundleSchema = z.looseObject({
  kind: z.literal("agent-approvals-oversight-evidence"),
  version: z.number().int(),
  generatedAt: z.string(),
  period: z.object({ from: z.string(), until: z.string() }),
  chain: chainVerificationSchema,
  rulesInForce: z.array(z.looseObject({ ruleId: z.string(), version: z.number().int() })),
  expiryRules: z.object({
    asOf: z.string(),
    versioned: z.literal(false).meta({ description: "Expiry rules keep no versions: these are the rules when the bundle was made." }),
    rules: z.array(
      z.object({
        agentId: z.string(),
        toolName: z.string().meta({ description: 'The tool, or "" for every tool of the agent.' }),
        afterMinutes: z.number().int(),
        mode: z.string(),
        warnMinutes: z.number().int().nullable(),
        updatedBy: z.string(),
        updatedAt: z.string(),
      }),
    ),
  }),
  decisions: z.array(z.looseObject({ decisionId: z.string(), decidedAt: z.string(), reviewer: z.string() })),
  decisionCount: z.number().int(),
  accessChanges: z.array(
    z.looseObject({ at: z.string(), change: z.string(), changedBy: z.string() }).meta({
      description: "Who gave or took which access (a token, a service account, a user's role), when, and how they were signed in.",
    }),
  ),
  accessChangeCount: z.number().int(),
  signature: z.object({ algorithm: z.literal("HMAC-SHA256"), keyId: z.string(), value: z.string() }),
});
