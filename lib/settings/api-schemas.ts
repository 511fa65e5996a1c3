/** What /api/admin/expiry-rules and /api/admin/review-settings answer, as zod schemas for the OpenAPI document (lib/openapi). */
import { z } from "zod";

const expiryRuleFields = {
  agentId: z.string(),
  toolName: z.string().meta({ description: '"": every tool of the agent.' }),
  afterMinutes: z.number().int(),
  mode: z.string().meta({ description: "decline (through the agent) or mark (only recorded)." }),
  warnMinutes: z.number().int().nullable(),
};

export const expiryRuleSchema = z
  .object({ ...expiryRuleFields, updatedBy: z.string(), updatedAt: z.string().meta({ format: "date-time" }) })
  .meta({ id: "ExpiryRule" });

export const savedExpiryRuleSchema = z.object(expiryRuleFields);

export const expiryRuleKeySchema = z.object({ agentId: z.string(), toolName: z.string() });

export const agentReviewSettingSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(["agent", "workflow"]),
    onlyAssigneeDecides: z.boolean(),
    allowTrust: z.boolean(),
    updatedBy: z.string().nullable(),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: "AgentReviewSetting" });

export const savedReviewSettingSchema = z.object({ agentId: z.string(), onlyAssigneeDecides: z.boolean(), allowTrust: z.boolean() });
