/**
 * The OpenAPI declarations of the routes outside the console's `{ ok, data }` operations: health
 * checks, the better-auth endpoints the console opens (lib/auth/endpoints.ts; the SSO round trip is
 * better-auth's own and not described), the Slack endpoints, and this document.
 */
import { z } from "zod";
import { READ_ERRORS, type RouteDoc } from "./declare.ts";

const okOnly = z.object({ ok: z.literal(true) });

/** better-auth's own answers are not the console's envelope: described as far as a script relies on them. */
const betterAuthError = z.looseObject({ code: z.string().optional(), message: z.string() }).meta({ id: "BetterAuthError" });
const authUser = z.looseObject({ id: z.string(), email: z.string(), name: z.string() }).meta({ id: "AuthUser" });

const slackForm = z
  .looseObject({ payload: z.string().optional(), command: z.string().optional(), text: z.string().optional() })
  .meta({ description: "Slack's form, signed with X-Slack-Signature and X-Slack-Request-Timestamp (the app's signing secret)." });
const SLACK_ERRORS = [
  "invalid_signature",
  "slack_not_configured",
  "rate_limited",
  "payload_too_large",
  "length_required",
  "invalid_input",
  "internal",
] as const;

export const ACCESS_ROUTES: RouteDoc[] = [
  {
    method: "get",
    path: "/api/health",
    tag: "Health",
    summary: "The console is up, configured, its database answers and has every migration.",
    description: "For load balancers: 503 with the reason otherwise. Never waits in the admission line.",
    caller: "anyone",
    success: { status: 200, description: "Up.", raw: okOnly },
    errors: [],
    otherAnswers: {
      503: {
        description: "Not ready: the reason, in a word or a sentence.",
        schema: z.object({ ok: z.literal(false), error: z.string() }),
      },
    },
  },
  {
    method: "get",
    path: "/api/health/session",
    tag: "Health",
    summary: "200 for a signed-in session that may read: the floor of any signed-in request.",
    caller: "signedIn",
    permission: "read",
    success: { status: 200, description: "The session may read.", raw: okOnly },
    errors: READ_ERRORS,
  },
  {
    method: "get",
    path: "/api/openapi.json",
    tag: "Health",
    summary: "This document: OpenAPI 3.1, generated from the zod schemas the routes validate with.",
    caller: "anyone",
    success: { status: 200, description: "The document.", raw: z.looseObject({ openapi: z.string() }), etag: true },
    errors: ["server_busy"],
  },
  {
    method: "post",
    path: "/api/auth/sign-in/email",
    tag: "Sign-in",
    summary: "Signs in with email and password; the answer sets the session cookie.",
    description: "better-auth's endpoint, opened by the console (lib/auth/endpoints.ts); its answers are better-auth's own.",
    caller: "anyone",
    body: z.object({
      email: z.string(),
      password: z.string(),
      rememberMe: z.boolean().optional(),
      callbackURL: z.string().optional(),
    }),
    success: {
      status: 200,
      description: "Signed in: Set-Cookie holds the session.",
      raw: z.looseObject({ token: z.string(), user: authUser }),
    },
    errors: ["invalid_input", "payload_too_large", "length_required"],
    otherAnswers: {
      401: { description: "Wrong email or password (better-auth's answer).", schema: betterAuthError },
      429: { description: "Too many sign-ins from this address (better-auth's rate limit).", schema: betterAuthError },
    },
  },
  {
    method: "post",
    path: "/api/auth/sign-out",
    tag: "Sign-in",
    summary: "Ends the session.",
    caller: "anyone",
    success: { status: 200, description: "Signed out.", raw: z.looseObject({ success: z.boolean() }) },
    errors: ["length_required", "payload_too_large"],
  },
  {
    method: "get",
    path: "/api/auth/get-session",
    tag: "Sign-in",
    summary: "Who the session cookie belongs to; null without one.",
    caller: "anyone",
    success: {
      status: 200,
      description: "The session and its user, or null.",
      raw: z.looseObject({ session: z.looseObject({ expiresAt: z.string() }), user: authUser }).nullable(),
    },
    errors: ["server_busy"],
  },
  {
    method: "post",
    path: "/api/integrations/slack/commands",
    tag: "Slack",
    summary: "The Request URL of the /approvals slash command.",
    caller: "slack",
    body: slackForm,
    bodyType: "application/x-www-form-urlencoded",
    success: { status: 200, description: "A message for Slack to show.", raw: z.looseObject({ text: z.string() }) },
    errors: SLACK_ERRORS,
  },
  {
    method: "post",
    path: "/api/integrations/slack/interactions",
    tag: "Slack",
    summary: "Slack's Interactivity Request URL: Approve and Decline clicks, the decline modal's submission.",
    caller: "slack",
    body: slackForm,
    bodyType: "application/x-www-form-urlencoded",
    success: {
      status: 200,
      description: "Acknowledged with no body, or JSON for Slack (the decline modal's errors).",
      raw: z.looseObject({}),
      mayBeEmpty: true,
    },
    errors: [...SLACK_ERRORS, "slack_not_linked"],
  },
];
