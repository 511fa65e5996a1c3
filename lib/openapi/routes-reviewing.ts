/** The OpenAPI declarations of the reviewer's routes: the queue, runs, decisions, insights, the profile (routes.ts gathers them). */
import { readInsightsOperation } from "../actions/insights-operations.ts";
import * as users from "../actions/user-operations.ts";
import { bulkOutcomeSchema } from "../decisions/api-schemas.ts";
import type { BulkOutcome, DecisionOutcome, DecisionErrorCode } from "../decisions/types.ts";
import { insightsSchema } from "../insights/api-schemas.ts";
import { setPresenceOperation } from "../actions/presence-operations.ts";
import { presenceAnswerSchema } from "../live/presence.ts";
import { streamQuery } from "../live/stream.ts";
import { queuePageSchema, runsPageSchema } from "../queue/api-schemas.ts";
import type { QueuePageDto, RunsPageDto } from "../queue/dto.ts";
import type { TrustOutcome } from "../rules/dto.ts";
import { queueQuery, runsQuery } from "../search-params.ts";
import { bulkBody, decisionAnswerSchema, decisionBody } from "./decision-schemas.ts";
import { emailModeSchema, languagePreferenceSchema, notificationPreferenceSchema, profileSchema } from "./profile-schemas.ts";
import { answers, READ_ERRORS, servedOperation, WRITE_ERRORS, type RouteDoc } from "./declare.ts";

/** Every refusal of a decision (lib/decisions/types.ts), and the refusal budget's. */
const DECISION_ERRORS = [
  ...WRITE_ERRORS,
  "forbidden",
  "rate_limited",
  "run_not_found",
  "tool_call_not_pending",
  "call_not_reached",
  "wrong_kind",
  "unknown_agent",
  "wrong_agent",
  "invalid_resume_data",
  "invalid_suggestion",
  "trust_forbidden",
  "trust_refused",
  "already_decided",
  "already_approved_by_you",
  "decided_outside",
  "not_assignee",
  "confirmation_required",
  "agent_failed",
] as const satisfies readonly (DecisionErrorCode | (typeof WRITE_ERRORS)[number] | "forbidden" | "rate_limited")[];

export const REVIEWING_ROUTES: RouteDoc[] = [
  {
    method: "get",
    path: "/api/queue",
    tag: "Queue",
    summary: "The review queue as the runs page shows it: whole threads (perPage counts threads), their calls, totals.",
    caller: "signedIn",
    permission: "read",
    query: queueQuery,
    success: { status: 200, description: "A page of threads.", data: answers<QueuePageDto>()(queuePageSchema), etag: true },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/events/stream",
    tag: "Queue",
    summary: "The live queue: a server-sent-events stream of what changed (docs/live-queue.md).",
    description:
      "Each event names a change (a call waiting or gone, a decision moving, an assignment, an approval counted, a rating) by ids, never rows. A reconnecting EventSource sends Last-Event-ID (the header wins over the parameter); one stream too many for the user (429) or the instance (503) is refused before it opens.",
    caller: "signedIn",
    permission: "read",
    query: streamQuery,
    success: { status: 200, description: "The stream; it stays open, with a heartbeat comment line.", eventStream: true },
    errors: [...READ_ERRORS, "rate_limited", "server_busy"],
  },
  servedOperation(setPresenceOperation, presenceAnswerSchema, {
    method: "post",
    path: "/api/events/presence",
    tag: "Queue",
    summary:
      "The calls open in one tab now (presence, docs/live-queue.md): answers who has each open; the others hear it on their streams.",
    description:
      "`stream` is the id the live stream's `ready` event gave the tab; the calls open there become `calls` (at most 20; those that do not wait are left out) and close when that stream ends. One person may have at most LIVE_PRESENCE_CALLS_PER_USER (default 100) open at once across tabs (429).",
    errors: ["rate_limited"],
  }),
  {
    method: "get",
    path: "/api/runs",
    tag: "Queue",
    summary: "The runs waiting, newest first, with their calls and arguments.",
    caller: "signedIn",
    permission: "read",
    query: runsQuery,
    success: { status: 200, description: "A page of runs.", data: answers<RunsPageDto>()(runsPageSchema) },
    errors: READ_ERRORS,
  },
  {
    method: "post",
    path: "/api/decisions",
    tag: "Decisions",
    summary: "Approves, declines or resumes one call (also decline_and_suggest, approve_and_trust).",
    description:
      "resumeData and args are JSON text, as the console's editors send them. Every refusal of a signed-in caller is written to the history; too many in a row answer 429 rate_limited with Retry-After.",
    caller: "signedIn",
    permission: "decide",
    body: decisionBody,
    success: {
      status: 200,
      description: 'The decision was carried out (or, under a "Require N approvals" rule, recorded).',
      data: answers<DecisionOutcome | TrustOutcome>()(decisionAnswerSchema),
    },
    errors: DECISION_ERRORS,
  },
  {
    method: "post",
    path: "/api/decisions/bulk",
    tag: "Decisions",
    summary: "Approve selected / Decline selected: 1 to 100 calls, one result each, in request order.",
    caller: "signedIn",
    permission: "decide",
    body: bulkBody,
    success: { status: 200, description: "One result per call, whatever became of each.", data: answers<BulkOutcome>()(bulkOutcomeSchema) },
    errors: [...WRITE_ERRORS, "forbidden", "rate_limited", "too_many_calls"],
  },
  {
    method: "get",
    path: "/api/insights",
    tag: "Insights",
    summary: "How oversight went in a period: the figures of /insights, as JSON or (format=csv) a CSV download.",
    caller: "signedIn",
    permission: readInsightsOperation.permission,
    query: readInsightsOperation.input,
    success: {
      status: 200,
      description: "The figures; with format=csv, a CSV file.",
      data: answers<Awaited<ReturnType<typeof readInsightsOperation.run>>>()(insightsSchema),
      csv: true,
    },
    errors: READ_ERRORS,
  },
  servedOperation(users.readProfileOperation, profileSchema, {
    method: "get",
    path: "/api/profile",
    tag: "Profile",
    summary: "The signed-in user, with the language and time zone /profile shows (null: the browser's).",
  }),
  servedOperation(users.setLanguagePreferenceOperation, languagePreferenceSchema, {
    method: "patch",
    path: "/api/profile",
    tag: "Profile",
    summary: 'Changes your language and time zone ("" for the browser\'s); either alone, the other stays.',
  }),
  servedOperation(users.readNotificationPreferenceOperation, notificationPreferenceSchema, {
    method: "get",
    path: "/api/profile/notifications",
    tag: "Profile",
    summary: "Your email choice, whether you are ever emailed, and whether this console sends email.",
  }),
  servedOperation(users.setNotificationPreferenceOperation, emailModeSchema, {
    method: "put",
    path: "/api/profile/notifications",
    tag: "Profile",
    summary: "Changes your email choice (only for who may decide).",
  }),
];
