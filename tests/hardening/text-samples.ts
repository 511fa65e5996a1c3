/**
 * What tests/hardening/text-fields.test.ts sends: a valid request for each method of each JSON route
 * and valid arguments for each server action, every text field filled in, so that each would
 * succeed but for the bad character the test puts into one field at a time.
 */
import { randomUUID } from "node:crypto";
import type { TestAccount } from "../helpers/accounts.ts";
import type { DemoRun } from "../helpers/demo-runs.ts";

/** What the samples name: records made before the walk, so each request could succeed but for its text. */
export interface Fixtures {
  admin: TestAccount;
  refund: DemoRun;
  shipping: DemoRun;
  ruleId: string;
  endpointId: string;
  userId: string;
}

export interface Sample {
  /** Values of the route's dynamic segments. */
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

const INSIGHTS = { period: "30", agentId: "refunds", toolName: "issueRefund", resourcePrefix: "cust_", risk: "low", timeZone: "UTC" };

const RULE = {
  name: "small refunds",
  enabled: false,
  agentId: "refunds",
  toolName: "issueRefund",
  resource: "cust_",
  resourceMatch: "prefix",
  callKind: "approval",
  conditions: [
    { path: "amount", op: "<=", value: 50 },
    { path: "orderId", op: "matches", value: "^ORD-7" },
    { path: "currency", op: "in", value: ["EUR", "USD"] },
  ],
  effect: "approve",
  risk: "low",
};
/** "Approve and trust" of the refund for an hour, its order the same, "today" in Seoul's terms for a reviewer who chose no zone. */
const TRUST = (refund: DemoRun) => ({
  ...refund.ref,
  agentId: "refunds",
  duration: "1h",
  sameArguments: ["orderId"],
  timeZone: "Asia/Seoul",
});
const DECLINING_RULE = { name: "no refunds", agentId: "refunds", effect: "decline", reason: "Refunds are paused" };
const SUGGESTIONS = { days: 30, minCalls: 5, maxWrongShare: 0.1, agentId: "refunds", toolName: "issueRefund", resourcePrefix: "cust_" };
const LIST = {
  resourceId: "cust_1",
  threadId: "ticket-1",
  agentId: "refunds",
  from: "2026-01-01",
  to: "2026-12-31",
  page: "1",
  perPage: "20",
};

/**
 * A valid request for each method of each route (several where the fields differ by kind), or why
 * a route takes no text to walk. Keys are `METHOD /api/…` as the file system names the route.
 */
export const ROUTES: Record<string, ((f: Fixtures) => Sample[]) | string> = {
  "GET /api/health": "takes no input",
  "GET /api/health/session": "takes no input",
  "GET /api/openapi.json": "takes no input (its ETag is compared, never stored)",
  "GET /api/runs": () => [{ query: LIST }],
  "GET /api/events/stream":
    "no text field: its one input is a feed position, digits only (tests/live/stream.test.ts sends it NUL, signs and letters); a valid request opens a stream that does not end",
  "POST /api/events/presence": ({ refund }) => [{ body: { stream: randomUUID(), calls: [refund.ref] } }],
  "GET /api/queue": () => [{ query: { ...LIST, sort: "risk", overdue: "1", assigned: "me", risk: "high,critical" } }],
  "GET /api/insights": () => [{ query: INSIGHTS }, { query: { from: "2026-11-01", to: "2026-11-30", format: "csv" } }],
  "POST /api/decisions": ({ refund, shipping }) => [
    { body: { action: "approve", ...refund.ref, agentId: "refunds" } },
    { body: { action: "decline", ...refund.ref, agentId: "refunds", reason: "Not this one" } },
    { body: { action: "resume", ...shipping.ref, agentId: "shipping", resumeData: JSON.stringify({ addressId: "addr_home" }) } },
    {
      body: {
        action: "decline_and_suggest",
        ...refund.ref,
        reason: "Only the damaged item",
        args: JSON.stringify({ orderId: "ORD-6201", amount: 10, currency: "EUR", customerEmail: "a@b.example", reason: "damaged" }),
      },
    },
    { body: { action: "approve_and_trust", ...TRUST(refund) } },
  ],
  "POST /api/decisions/bulk": ({ refund }) => [
    { body: { action: "decline", reason: "Duplicate", calls: [{ ...refund.ref, agentId: "refunds" }] } },
  ],
  "GET /api/admin/expiry-rules": "takes no input",
  "POST /api/admin/expiry-rules": () => [
    { body: { agentId: "refunds", toolName: "issueRefund", afterMinutes: 120, mode: "mark", warnMinutes: "30" } },
  ],
  "DELETE /api/admin/expiry-rules": () => [{ body: { agentId: "refunds", toolName: "issueRefund" } }],
  "GET /api/admin/review-settings": "takes no input",
  "PUT /api/admin/review-settings/[agentId]": () => [
    { path: { agentId: "refunds" }, body: { onlyAssigneeDecides: true, allowTrust: true } },
  ],
  "GET /api/admin/rules": "takes no input",
  "POST /api/admin/rules": () => [{ body: RULE }, { body: DECLINING_RULE }],
  "POST /api/admin/rules/dry-run": () => [{ body: { rule: RULE, page: 1, pageSize: 50 } }, { body: { rule: DECLINING_RULE } }],
  "POST /api/admin/rules/backtest": () => [
    { body: { rule: RULE, days: 30, include: "all", page: 1, pageSize: 50 } },
    { body: { rule: DECLINING_RULE } },
  ],
  "POST /api/admin/rules/suggestions": () => [{ body: SUGGESTIONS }],
  "POST /api/admin/rules/suggestions/accept": () => [{ body: { rule: RULE, days: 30 } }, { body: { rule: DECLINING_RULE } }],
  "GET /api/admin/rules/[id]": ({ ruleId }) => [{ path: { id: ruleId } }],
  "PUT /api/admin/rules/[id]": ({ ruleId }) => [
    { path: { id: ruleId }, body: RULE },
    { path: { id: ruleId }, body: DECLINING_RULE },
  ],
  "DELETE /api/admin/rules/[id]": ({ ruleId }) => [{ path: { id: ruleId }, body: {} }],
  "POST /api/admin/rules/[id]/apply": ({ ruleId }) => [{ path: { id: ruleId }, body: {} }],
  "GET /api/admin/users": "takes no input",
  "POST /api/admin/users": () => [{ body: { name: "Eve", email: "eve@test.example", role: "reviewer", password: "a-long-password-1" } }],
  "PATCH /api/admin/users/[id]": ({ userId }) => [{ path: { id: userId }, body: { role: "support" } }],
  "GET /api/admin/webhooks": "takes no input",
  "POST /api/admin/webhooks": () => [
    { body: { url: "http://203.0.113.10/hooks", eventTypes: ["call.waiting", "call.decided"], slack: true, locale: "ko" } },
  ],
  "PATCH /api/admin/webhooks/[id]": ({ endpointId }) => [{ path: { id: endpointId }, body: { enabled: false, locale: "ko" } }],
  "GET /api/admin/webhooks/[id]/deliveries": ({ endpointId }) => [{ path: { id: endpointId } }],
  "POST /api/admin/webhooks/[id]/deliveries/[deliveryId]/retry": ({ endpointId }) => [
    { path: { id: endpointId, deliveryId: randomUUID() }, body: {} },
  ],
  "GET /api/admin/tokens": "takes no input",
  "POST /api/admin/tokens": () => [{ body: { name: "deploy pipeline", scopes: ["queue:read"], expiresInDays: 30 } }],
  "DELETE /api/admin/tokens/[id]": () => [{ path: { id: randomUUID() }, body: {} }],
  "GET /api/admin/service-accounts": "takes no input",
  "POST /api/admin/service-accounts": () => [{ body: { name: "ci-bot", role: "reviewer" } }],
  "PATCH /api/admin/service-accounts/[id]": () => [{ path: { id: randomUUID() }, body: { disabled: true } }],
  "GET /api/admin/audit/verify": () => [{ query: { checkpointSeq: "1", checkpointHash: "0".repeat(64) } }],
  "GET /api/admin/evidence": () => [{ query: { from: "2026-11-01", to: "2026-11-30", format: "csv" } }],
  "GET /api/profile/tokens": "takes no input",
  "POST /api/profile/tokens": () => [{ body: { name: "mine", scopes: ["queue:read"] } }],
  "DELETE /api/profile/tokens/[id]": () => [{ path: { id: randomUUID() }, body: {} }],
  "GET /api/profile": "takes no input",
  "PATCH /api/profile": () => [{ body: { locale: "ko", timeZone: "Asia/Seoul" } }],
  "GET /api/profile/notifications": "takes no input",
  "PUT /api/profile/notifications": () => [{ body: { email: "hourly" } }],
  // better-auth's endpoints: only the ones lib/auth/endpoints.ts opens answer; signing in takes JSON.
  "POST /api/auth/[...all]": ({ admin }) => [{ path: { all: "sign-in/email" }, body: { email: admin.email, password: admin.password } }],
  "GET /api/auth/[...all]": "get-session takes no input; the SSO callback's query is checked by the route itself (tests/auth)",
  "PUT /api/auth/[...all]": "no endpoint is open for it: 404 before better-auth reads the request",
  "PATCH /api/auth/[...all]": "no endpoint is open for it: 404 before better-auth reads the request",
  "DELETE /api/auth/[...all]": "no endpoint is open for it: 404 before better-auth reads the request",
  "OPTIONS /api/auth/[...all]": "no endpoint is open for it: 404 before better-auth reads the request",
  "POST /api/integrations/slack/commands": "not JSON: a form signed by Slack (tests/slack); its text reaches the same input checks",
  "POST /api/integrations/slack/interactions": "not JSON: a form signed by Slack (tests/slack); a decline's reason reaches decideFor",
};

/**
 * Every server action of the build, with valid arguments, or why none are walked. The decision
 * actions' refusals are audited (and counted against REFUSALS_PER_MINUTE, raised for this test).
 */
export const ACTIONS: Record<string, ((f: Fixtures) => unknown) | string> = {
  acceptSuggestedRule: () => ({ rule: RULE, days: 30 }),
  applyRule: ({ ruleId }) => ({ id: ruleId }),
  approveAndTrust: ({ refund }) => TRUST(refund),
  approveToolCall: ({ refund }) => ({ ...refund.ref, agentId: "refunds" }),
  assignThread: ({ refund, admin }) => ({ threadId: refund.thread, assigneeId: admin.id }),
  assignToolCall: ({ refund, admin }) => ({ ...refund.ref, assigneeId: admin.id }),
  backtestRule: () => ({ rule: RULE, days: 30 }),
  browseRuns:
    "reads the URL's parameters as the page does: a NUL is reported as a problem of the view, not refused (tests/i18n/link-problems)",
  createOwnToken: () => ({ name: "mine", scopes: ["queue:read"] }),
  createRule: () => RULE,
  createServiceAccount: () => ({ name: "ci-bot", role: "reviewer" }),
  createSlackLinkCode: "takes no input",
  createToken: () => ({ name: "deploy pipeline", scopes: ["queue:read"] }),
  createUser: () => ({ name: "Eve", email: "eve@test.example", role: "reviewer", password: "a-long-password-1" }),
  createWebhook: () => ({ url: "http://203.0.113.10/hooks", eventTypes: ["call.waiting"], slack: false, locale: "en" }),
  decideInBulk: ({ refund }) => ({ action: "decline", reason: "Duplicate", calls: [refund.ref] }),
  declineAndSuggest: ({ refund }) => ({
    ...refund.ref,
    reason: "Only the damaged item",
    args: JSON.stringify({ orderId: "ORD-6201", amount: 10, currency: "EUR", customerEmail: "a@b.example", reason: "damaged" }),
  }),
  declineToolCall: ({ refund }) => ({ ...refund.ref, reason: "Not this one" }),
  deleteExpiryRule: () => ({ agentId: "refunds", toolName: "issueRefund" }),
  deleteRule: ({ ruleId }) => ({ id: ruleId }),
  dryRunRule: () => ({ rule: RULE }),
  listAssignableUsers: "takes no input",
  readCallDecisions: ({ refund }) => ({ runId: refund.runId }),
  readConversation: ({ refund }) => ({ runId: refund.runId }),
  readEarlierDecisions: ({ refund }) => refund.ref,
  readEarlierInThread: ({ refund }) => ({ runId: refund.runId }),
  readRun: ({ refund }) => ({ runId: refund.runId }),
  readToolInfo: ({ refund }) => refund.ref,
  resumeToolCall: ({ shipping }) => ({ ...shipping.ref, resumeData: JSON.stringify({ addressId: "addr_home" }) }),
  retryWebhookDelivery: ({ endpointId }) => ({ endpointId, deliveryId: randomUUID() }),
  revokeOwnToken: () => ({ id: randomUUID() }),
  revokeToken: () => ({ id: randomUUID() }),
  saveExpiryRule: () => ({ agentId: "refunds", toolName: "issueRefund", afterMinutes: 120 }),
  saveReviewSetting: () => ({ agentId: "refunds", onlyAssigneeDecides: true }),
  setLanguagePreference: () => ({ locale: "ko", timeZone: "Asia/Seoul" }),
  setNotificationPreference: () => ({ email: "hourly" }),
  setServiceAccountDisabled: () => ({ id: randomUUID(), disabled: true }),
  setUserRole: ({ userId }) => ({ userId, role: "support" }),
  signOut: "takes no input",
  suggestRules: () => SUGGESTIONS,
  updateRule: ({ ruleId }) => ({ ...DECLINING_RULE, id: ruleId }),
  updateWebhook: ({ endpointId }) => ({ id: endpointId, enabled: false }),
  verifyAuditChain: () => ({ checkpointSeq: 1, checkpointHash: "0".repeat(64) }),
};
