/** The OpenAPI declarations of /api/admin/* (routes.ts gathers every file's). */
import { z } from "zod";
import * as rules from "../actions/rule-operations.ts";
import * as settings from "../actions/settings-operations.ts";
import * as users from "../actions/user-operations.ts";
import * as webhooks from "../actions/webhook-operations.ts";
import { accountSchema, createdAccountSchema, roleChangeSchema } from "../auth/api-schemas.ts";
import {
  appliedRuleSchema,
  backtestResultSchema,
  deletedRuleSchema,
  dryRunResultSchema,
  proposalsResultSchema,
  ruleListSchema,
  ruleSchema,
  ruleVersionsSchema,
} from "../rules/api-schemas.ts";
import {
  agentReviewSettingSchema,
  expiryRuleKeySchema,
  expiryRuleSchema,
  savedExpiryRuleSchema,
  savedReviewSettingSchema,
} from "../settings/api-schemas.ts";
import {
  createdWebhookSchema,
  retriedDeliverySchema,
  updatedWebhookSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
} from "../webhooks/api-schemas.ts";
import { servedOperation, type RouteDoc } from "./declare.ts";

const rule = "/api/admin/rules/{id}";

export const ADMIN_ROUTES: RouteDoc[] = [
  servedOperation(settings.listExpiryRulesOperation, z.array(expiryRuleSchema), {
    method: "get",
    path: "/api/admin/expiry-rules",
    tag: "Expiry rules",
    summary: "Every expiry rule.",
  }),
  servedOperation(settings.saveExpiryRuleOperation, savedExpiryRuleSchema, {
    method: "post",
    path: "/api/admin/expiry-rules",
    tag: "Expiry rules",
    summary: "Creates or replaces the expiry rule of (agent, tool).",
  }),
  servedOperation(settings.deleteExpiryRuleOperation, expiryRuleKeySchema, {
    method: "delete",
    path: "/api/admin/expiry-rules",
    tag: "Expiry rules",
    summary: "Removes the expiry rule of (agent, tool).",
    errors: ["expiry_rule_not_found"],
  }),
  servedOperation(settings.listReviewSettingsOperation, z.array(agentReviewSettingSchema), {
    method: "get",
    path: "/api/admin/review-settings",
    tag: "Review settings",
    summary: "Every agent the console serves, with its review settings.",
  }),
  servedOperation(settings.saveReviewSettingOperation, savedReviewSettingSchema, {
    method: "put",
    path: "/api/admin/review-settings/{agentId}",
    tag: "Review settings",
    summary: 'Turns an agent\'s "only the assignee decides" or "allow trust" on or off; either alone changes only itself.',
    pathFields: { agentId: "agentId" },
  }),
  servedOperation(rules.listRulesOperation, ruleListSchema, {
    method: "get",
    path: "/api/admin/rules",
    tag: "Rules",
    summary: "Every rule, in order (the first match wins).",
  }),
  servedOperation(rules.createRuleOperation, ruleSchema, {
    method: "post",
    path: "/api/admin/rules",
    tag: "Rules",
    summary: "Creates a rule.",
    status: 201,
  }),
  servedOperation(rules.ruleVersionsOperation, ruleVersionsSchema, {
    method: "get",
    path: rule,
    tag: "Rules",
    summary: "The rule's kept versions, newest first (none for an id that names no rule; a deleted rule's are kept).",
    pathFields: { id: "id" },
  }),
  servedOperation(rules.updateRuleOperation, ruleSchema, {
    method: "put",
    path: rule,
    tag: "Rules",
    summary: "A new version of the rule: every field, as when creating.",
    pathFields: { id: "id" },
    errors: ["rule_not_found"],
  }),
  servedOperation(rules.deleteRuleOperation, deletedRuleSchema, {
    method: "delete",
    path: rule,
    tag: "Rules",
    summary: "Deletes the rule (its versions are kept).",
    pathFields: { id: "id" },
    errors: ["rule_not_found"],
  }),
  servedOperation(rules.applyRuleOperation, appliedRuleSchema, {
    method: "post",
    path: `${rule}/apply`,
    tag: "Rules",
    summary: "Applies the rule to the calls waiting now.",
    pathFields: { id: "id" },
    errors: ["rule_not_found"],
  }),
  servedOperation(rules.dryRunRuleOperation, dryRunResultSchema, {
    method: "post",
    path: "/api/admin/rules/dry-run",
    tag: "Rules",
    summary: "What the rule would do to the calls waiting now.",
  }),
  servedOperation(rules.backtestRuleOperation, backtestResultSchema, {
    method: "post",
    path: "/api/admin/rules/backtest",
    tag: "Rules",
    summary: "What the rule would have decided over the last `days` days.",
  }),
  servedOperation(rules.suggestRulesOperation, proposalsResultSchema, {
    method: "post",
    path: "/api/admin/rules/suggestions",
    tag: "Rules",
    summary: "Rules suggested from people's decisions.",
  }),
  servedOperation(rules.acceptSuggestedRuleOperation, ruleSchema, {
    method: "post",
    path: "/api/admin/rules/suggestions/accept",
    tag: "Rules",
    summary: "Creates a suggested rule, disabled, its backtest kept with version 1.",
    status: 201,
  }),
  servedOperation(users.listUsersOperation, z.array(accountSchema), {
    method: "get",
    path: "/api/admin/users",
    tag: "Users",
    summary: "Every account (no passwords).",
  }),
  servedOperation(users.createUserWithPasswordOperation, createdAccountSchema, {
    method: "post",
    path: "/api/admin/users",
    tag: "Users",
    summary: "Adds an account; without a password one is generated and answered this once.",
    status: 201,
    errors: ["user_admin"],
  }),
  servedOperation(users.setUserRoleOperation, roleChangeSchema, {
    method: "patch",
    path: "/api/admin/users/{id}",
    tag: "Users",
    summary: "Changes a role (never your own admin role, never the last admin's).",
    pathFields: { id: "userId" },
    errors: ["user_not_found"],
  }),
  servedOperation(webhooks.listWebhooksOperation, z.array(webhookEndpointSchema), {
    method: "get",
    path: "/api/admin/webhooks",
    tag: "Webhooks",
    summary: "Every endpoint, newest first, never its secret.",
  }),
  servedOperation(webhooks.createWebhookOperation, createdWebhookSchema, {
    method: "post",
    path: "/api/admin/webhooks",
    tag: "Webhooks",
    summary: "Adds an endpoint; the answer holds its whsec_ secret, this once.",
    status: 201,
  }),
  servedOperation(webhooks.updateWebhookOperation, updatedWebhookSchema, {
    method: "patch",
    path: "/api/admin/webhooks/{id}",
    tag: "Webhooks",
    summary: "Enables or disables an endpoint, or sets its Slack messages' language.",
    pathFields: { id: "id" },
    errors: ["webhook_not_found"],
  }),
  servedOperation(webhooks.listWebhookDeliveriesOperation, z.array(webhookDeliverySchema), {
    method: "get",
    path: "/api/admin/webhooks/{id}/deliveries",
    tag: "Webhooks",
    summary: "The endpoint's latest 50 deliveries with their attempts.",
    pathFields: { id: "id" },
    errors: ["webhook_not_found"],
  }),
  servedOperation(webhooks.retryWebhookDeliveryOperation, retriedDeliverySchema, {
    method: "post",
    path: "/api/admin/webhooks/{id}/deliveries/{deliveryId}/retry",
    tag: "Webhooks",
    summary: "Sends a delivery again within a second.",
    pathFields: { id: "endpointId", deliveryId: "deliveryId" },
    errors: ["webhook_not_found"],
  }),
];
