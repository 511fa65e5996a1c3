/**
 * Every route of the OpenAPI document (GET /api/openapi.json) called on a real console server, on
 * SQLite and PostgreSQL: each method's success, and each error that is cheap to provoke (no session,
 * another role, another origin, a bad field, an unknown id, a body too large or of unknown length,
 * a call decided twice), every answer checked against the document (checked-api.ts). It fails when
 * an answer drifts from the document, and when a documented route was never answered with success.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie, type TestAccount } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";
import { signedSlackRequest, commandBody, clickBody } from "../helpers/slack-stand-in.ts";
import { checkedApi } from "./checked-api.ts";
import { provokeCommonRefusals } from "./common-refusals.ts";
import { callTokenRoutes } from "./token-routes.ts";

const SLACK_SECRET = "openapi-conformance-secret";
/** Documented successes no cheap request reaches: each with why. */
const SUCCESS_NOT_REACHED = new Map<string, string>([
  ["GET /api/events/stream", "a stream that stays open: tests/live/stream.test.ts reads it; here its refusals are checked"],
]);

describe.each(["sqlite", "postgres"] as const)("the JSON API answers as its OpenAPI document says (%s)", (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let admin: TestAccount;
  let cookies: Record<"admin" | "reviewer" | "support", string>;
  let runs: DemoRun[];
  let api: Awaited<ReturnType<typeof checkedApi>>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [started, a, reviewer, support, ...suspended] = await Promise.all([
      startConsoleServer(database.url, {
        SLACK_SIGNING_SECRET: SLACK_SECRET,
        EVIDENCE_SIGNING_KEY: "openapi-conformance-evidence-key-0123456789",
      }),
      createTestAccount(database.url, "admin", "Ada"),
      createTestAccount(database.url, "reviewer", "Rita"),
      createTestAccount(database.url, "support", "Sam"),
      suspendDemoRun(database.url, "refunds", refundRequest("ORD-7001", "20.00 EUR")),
      suspendDemoRun(database.url, "refunds", refundRequest("ORD-7002", "21.00 EUR")),
    ]);
    [server, admin, runs] = [started, a, suspended];
    cookies = {
      admin: await sessionCookie(database.url, a),
      reviewer: await sessionCookie(database.url, reviewer),
      support: await sessionCookie(database.url, support),
    };
    api = await checkedApi(server);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database?.url);
    await database?.drop();
  });

  it("answers the document itself, with an ETag and 304", async () => {
    const first = await api.call("GET", "/api/openapi.json");
    expect(first.body.openapi).toBe("3.1.0");
    const again = await api.call("GET", "/api/openapi.json", { headers: { "if-none-match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("health, sign-in and the session", async () => {
    expect((await api.call("GET", "/api/health")).status).toBe(200);
    expect((await api.call("GET", "/api/health/session", { cookie: cookies.support })).status).toBe(200);
    const signedIn = await api.call("POST", "/api/auth/sign-in/email", { body: { email: admin.email, password: admin.password } });
    expect(signedIn).toMatchObject({ status: 200, body: { user: { email: admin.email } } });
    expect((await api.call("POST", "/api/auth/sign-in/email", { body: { email: admin.email, password: "wrong-password" } })).status).toBe(
      401,
    );
    expect((await api.call("POST", "/api/auth/sign-in/email", { body: { email: "a\u0000@x.example", password: "x" } })).status).toBe(400);
    expect((await api.call("GET", "/api/auth/get-session", { cookie: cookies.reviewer })).body.user.name).toBe("Rita");
    expect((await api.call("GET", "/api/auth/get-session")).body).toBeNull();
    const session = await sessionCookie(database.url, admin);
    expect((await api.call("POST", "/api/auth/sign-out", { cookie: session, body: {} })).status).toBe(200);
  });

  it("the queue, runs and insights, as JSON and CSV", async () => {
    const queue = await api.call("GET", "/api/queue", { cookie: cookies.support, query: { sort: "oldest", perPage: "20" } });
    expect(queue.body.data.callTotal).toBe(2);
    const unchanged = await api.call("GET", "/api/queue", {
      cookie: cookies.support,
      query: { sort: "oldest", perPage: "20" },
      headers: { "if-none-match": queue.headers.get("etag")! },
    });
    expect(unchanged.status).toBe(304);
    expect((await api.call("GET", "/api/events/stream", { cookie: cookies.support, query: { lastEventId: "x" } })).status).toBe(400);
    expect((await api.call("GET", "/api/events/stream", {})).status).toBe(401);
    const open = { stream: randomUUID(), calls: [runs[0]!.ref] };
    expect(
      (await api.call("POST", "/api/events/presence", { cookie: cookies.support, body: open })).body.data.calls[0].viewers,
    ).toHaveLength(1);
    expect((await api.call("POST", "/api/events/presence", { cookie: cookies.support, body: { ...open, stream: "x" } })).status).toBe(400);
    const listed = await api.call("GET", "/api/runs", { cookie: cookies.reviewer });
    expect(listed.body.data.runs.map((run: { runId: string }) => run.runId).sort()).toEqual(runs.map((run) => run.runId).sort());
    expect((await api.call("GET", "/api/runs", { cookie: cookies.reviewer, query: { perPage: "lots" } })).status).toBe(400);
    expect((await api.call("GET", "/api/insights", { cookie: cookies.admin, query: { period: "7" } })).status).toBe(200);
    const csv = await api.call("GET", "/api/insights", { cookie: cookies.admin, query: { period: "7", format: "csv" } });
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await api.call("GET", "/api/insights", { cookie: cookies.admin, query: { period: "8" } })).status).toBe(400);
  });

  it("decides one call and a bulk of another, and refuses what it cannot do", async () => {
    const [one, two] = runs;
    const approve = { action: "approve", ...one!.ref, agentId: "refunds" };
    const approved = await api.call("POST", "/api/decisions", { cookie: cookies.reviewer, body: approve });
    expect(approved.body.data).toMatchObject({ action: "approve", runId: one!.runId });
    expect((await api.call("POST", "/api/decisions", { cookie: cookies.admin, body: approve })).body.error.code).toMatch(
      /already_decided|run_not_found/,
    );
    const unknown = { action: "approve", runId: `run-${randomUUID()}`, toolCallId: "call-1" };
    expect((await api.call("POST", "/api/decisions", { cookie: cookies.reviewer, body: unknown })).body.error.code).toBe("run_not_found");
    expect((await api.call("POST", "/api/decisions", { cookie: cookies.reviewer, body: { action: "maybe" } })).status).toBe(400);
    expect((await api.call("POST", "/api/decisions", { cookie: cookies.support, body: approve })).body.error.code).toBe("forbidden");
    const tooMany = Array.from({ length: 101 }, (_, index) => ({ runId: `run-${index}`, toolCallId: "c" }));
    const refused = await api.call("POST", "/api/decisions/bulk", {
      cookie: cookies.reviewer,
      body: { action: "approve", calls: tooMany },
    });
    expect(refused.body.error.code).toBe("too_many_calls");
    const bulk = await api.call("POST", "/api/decisions/bulk", {
      cookie: cookies.reviewer,
      body: { action: "decline", calls: [two!.ref], reason: "Not this one" },
    });
    expect(bulk.body.data.counts.applied).toBe(1);
  });

  it("the profile and the email preference", async () => {
    expect((await api.call("GET", "/api/profile", { cookie: cookies.support })).body.data.role).toBe("support");
    expect(
      (await api.call("PATCH", "/api/profile", { cookie: cookies.support, body: { locale: "ko", timeZone: "" } })).body.data.locale,
    ).toBe("ko");
    expect((await api.call("PATCH", "/api/profile", { cookie: cookies.support, body: { locale: "xx" } })).status).toBe(400);
    expect((await api.call("GET", "/api/profile/notifications", { cookie: cookies.reviewer })).body.data.email).toBe("off");
    expect((await api.call("PUT", "/api/profile/notifications", { cookie: cookies.reviewer, body: { email: "hourly" } })).status).toBe(200);
    expect((await api.call("PUT", "/api/profile/notifications", { cookie: cookies.support, body: { email: "hourly" } })).status).toBe(403);
  });

  it("expiry rules, review settings and users", async () => {
    const cookie = cookies.admin;
    const key = { agentId: "refunds", toolName: "issueRefund" };
    expect(
      (await api.call("POST", "/api/admin/expiry-rules", { cookie, body: { ...key, afterMinutes: 120, warnMinutes: 30 } })).status,
    ).toBe(200);
    expect((await api.call("GET", "/api/admin/expiry-rules", { cookie })).body.data).toHaveLength(1);
    expect((await api.call("DELETE", "/api/admin/expiry-rules", { cookie, body: key })).status).toBe(200);
    expect((await api.call("DELETE", "/api/admin/expiry-rules", { cookie, body: key })).body.error.code).toBe("expiry_rule_not_found");
    expect((await api.call("GET", "/api/admin/review-settings", { cookie })).body.data.length).toBeGreaterThan(0);
    const setting = await api.call("PUT", "/api/admin/review-settings/{agentId}", {
      cookie,
      params: { agentId: "refunds" },
      body: { allowTrust: true },
    });
    expect(setting.body.data).toMatchObject({ agentId: "refunds", allowTrust: true });
    const created = await api.call("POST", "/api/admin/users", {
      cookie,
      body: { name: "Nia", email: "nia@test.example", role: "support" },
    });
    expect(created.body.data.password).toEqual(expect.any(String));
    expect(
      (await api.call("POST", "/api/admin/users", { cookie, body: { name: "Nia", email: "nia@test.example", role: "support" } })).status,
    ).toBe(422);
    expect((await api.call("GET", "/api/admin/users", { cookie })).body.data).toHaveLength(4);
    const id = created.body.data.id as string;
    expect((await api.call("PATCH", "/api/admin/users/{id}", { cookie, params: { id }, body: { role: "reviewer" } })).body.data.role).toBe(
      "reviewer",
    );
    expect(
      (await api.call("PATCH", "/api/admin/users/{id}", { cookie, params: { id: "nobody" }, body: { role: "reviewer" } })).status,
    ).toBe(404);
  });

  it("the audit log: verify it, with a checkpoint, and export evidence as JSON and CSV", async () => {
    const cookie = cookies.admin;
    const verified = await api.call("GET", "/api/admin/audit/verify", { cookie });
    expect(verified.body.data.ok).toBe(true);
    const { seq, hash } = verified.body.data.head;
    if (seq > 0)
      expect(
        (await api.call("GET", "/api/admin/audit/verify", { cookie, query: { checkpointSeq: String(seq), checkpointHash: hash } })).body
          .data.ok,
      ).toBe(true);
    expect((await api.call("GET", "/api/admin/audit/verify", { cookie, query: { checkpointSeq: "1" } })).status).toBe(400);
    expect((await api.call("GET", "/api/admin/evidence", { cookie })).body.kind).toBe("agent-approvals-oversight-evidence");
    expect((await api.call("GET", "/api/admin/evidence", { cookie, query: { format: "csv" } })).status).toBe(200);
    expect((await api.call("GET", "/api/admin/evidence", { cookie, query: { from: "2026-02-30" } })).status).toBe(400);
    expect((await api.call("GET", "/api/admin/evidence", { cookie: cookies.reviewer })).status).toBe(403);
  });

  it("rules: create, read, change, try, apply, suggest, delete", async () => {
    const cookie = cookies.admin;
    const rule = { name: "Small refunds", agentId: "refunds", toolName: "issueRefund", effect: "ask", enabled: true };
    const created = await api.call("POST", "/api/admin/rules", { cookie, body: rule });
    const id = created.body.data.id as string;
    expect((await api.call("GET", "/api/admin/rules", { cookie })).body.data.rules).toHaveLength(1);
    expect(
      (await api.call("PUT", "/api/admin/rules/{id}", { cookie, params: { id }, body: { ...rule, risk: "low" } })).body.data.version,
    ).toBe(2);
    expect((await api.call("GET", "/api/admin/rules/{id}", { cookie, params: { id } })).body.data.versions).toHaveLength(2);
    expect((await api.call("GET", "/api/admin/rules/{id}", { cookie, params: { id: "nope" } })).body.data.versions).toEqual([]);
    expect((await api.call("POST", "/api/admin/rules/{id}/apply", { cookie, params: { id: "nope" }, body: {} })).body.error.code).toBe(
      "rule_not_found",
    );
    expect((await api.call("POST", "/api/admin/rules/{id}/apply", { cookie, params: { id }, body: {} })).body.data.ruleId).toBe(id);
    expect((await api.call("POST", "/api/admin/rules/dry-run", { cookie, body: { rule } })).body.data.waiting).toBeGreaterThanOrEqual(0);
    const backtest = await api.call("POST", "/api/admin/rules/backtest", { cookie, body: { rule, days: 7 } });
    expect(backtest.body.data.days).toBe(7);
    expect((await api.call("POST", "/api/admin/rules/suggestions", { cookie, body: { days: 7, minCalls: 1 } })).status).toBe(200);
    const suggested = { ...rule, name: "Suggested", enabled: false, effect: "approve" };
    expect((await api.call("POST", "/api/admin/rules/suggestions/accept", { cookie, body: { rule: suggested, days: 7 } })).status).toBe(
      201,
    );
    expect((await api.call("DELETE", "/api/admin/rules/{id}", { cookie, params: { id }, body: {} })).body.data.deleted).toBe(true);
  });

  it("API tokens and service accounts: create, use as a Bearer, list, revoke", () => callTokenRoutes(api, cookies));

  it("webhooks: add, change, list deliveries, retry one", async () => {
    const cookie = cookies.admin;
    const created = await api.call("POST", "/api/admin/webhooks", {
      cookie,
      body: { url: "http://203.0.113.10/hooks", eventTypes: ["call.waiting"], slack: false },
    });
    const id = created.body.data.id as string;
    expect(
      (await api.call("PATCH", "/api/admin/webhooks/{id}", { cookie, params: { id }, body: { enabled: false } })).body.data.enabled,
    ).toBe(false);
    expect(
      (await api.call("PATCH", "/api/admin/webhooks/{id}", { cookie, params: { id: randomUUID() }, body: { enabled: true } })).status,
    ).toBe(404);
    expect((await api.call("GET", "/api/admin/webhooks", { cookie })).body.data[0].id).toBe(id);
    const db = await getDb(database.url);
    const longAgo = new Date(Date.now() - 86_400_000);
    const event = await db.outboxEvent.create({
      data: { id: `evt_${randomUUID()}`, type: "call.waiting", payload: "{}", createdAt: longAgo },
    });
    const delivery = await db.webhookDelivery.create({
      data: {
        id: randomUUID(),
        endpointId: id,
        eventId: event.id,
        state: "failed",
        attempts: 3,
        nextAttemptAt: longAgo,
        createdAt: longAgo,
        updatedAt: longAgo,
      },
    });
    await db.webhookAttempt.create({
      data: { deliveryId: delivery.id, at: longAgo, ok: false, responseCode: 500, error: "HTTP 500", durationMs: 12 },
    });
    expect((await api.call("GET", "/api/admin/webhooks/{id}/deliveries", { cookie, params: { id } })).body.data[0].attemptLog).toHaveLength(
      1,
    );
    const retry = "/api/admin/webhooks/{id}/deliveries/{deliveryId}/retry";
    expect((await api.call("POST", retry, { cookie, params: { id, deliveryId: delivery.id }, body: {} })).status).toBe(200);
    expect((await api.call("POST", retry, { cookie, params: { id, deliveryId: randomUUID() }, body: {} })).status).toBe(404);
  });

  it("the Slack endpoints: a signed command, a click from an unlinked user, an unsigned request", async () => {
    const who = { userId: "U0001", teamId: "T0001" };
    const send = async (path: string, body: string, secret = SLACK_SECRET) => {
      const signed = signedSlackRequest(`${server.url}${path}`, body, { secret });
      return api.call("POST", path, { raw: body, headers: Object.fromEntries(signed.headers) });
    };
    expect((await send("/api/integrations/slack/commands", commandBody("help", who))).status).toBe(200);
    expect((await send("/api/integrations/slack/commands", commandBody("help", who), "another-secret")).body.error.code).toBe(
      "invalid_signature",
    );
    const click = await send("/api/integrations/slack/interactions", clickBody("approve", runs[1]!.ref, who, "http://127.0.0.1:9/respond"));
    expect([200, 403]).toContain(click.status);
  });

  it("refuses every signed-in route without a session, from another role, another origin, with a bad or outsized body", async () => {
    await provokeCommonRefusals(api, cookies);
  });

  it("answered every documented route with a success, and each answer fit the document", () => {
    const operations = Object.entries(api.document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const succeeded = new Set(api.seen.filter((seen) => seen.status < 300).map((seen) => seen.operation));
    const missing = operations.filter((operation) => !succeeded.has(operation) && !SUCCESS_NOT_REACHED.has(operation));
    expect(missing).toEqual([]);
    const codes = new Set(api.seen.map((seen) => seen.code).filter(Boolean));
    for (const code of ["unauthenticated", "forbidden", "cross_site", "invalid_input", "payload_too_large", "length_required"])
      expect(codes).toContain(code);
  });
});
