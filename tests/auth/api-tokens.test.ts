/**
 * API tokens against two real console servers on one database (SQLite and PostgreSQL), as two
 * instances of a deployment: a service account's token reads the queue and approves a waiting call
 * with `Authorization: Bearer`, and its decision's audit row names the token. Hostile tokens (wrong,
 * malformed, 10 KB, revoked and replayed on the other instance, expired, another scope, a service
 * account on admin routes, a bad bearer beside an admin's cookie) are each refused 401/403 with a
 * clear JSON error, and leave nothing but a refusal row where refusals are recorded (decisions).
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie, type TestAccount } from "../helpers/accounts.ts";
import { configApi } from "../helpers/config-api.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";
import { tokenRequests } from "../helpers/tokens.ts";

describe.each(["sqlite", "postgres"] as const)("API tokens on %s", { timeout: 300_000 }, (kind) => {
  const database = useTestDatabase(kind);
  let first: ConsoleServer;
  let second: ConsoleServer;
  let admin: TestAccount;
  let adminCookie: string;
  let ciToken: string;
  let ciTokenId: string;
  let readOnlyToken: string;

  beforeAll(async () => {
    [first, second, admin] = await Promise.all([
      startConsoleServer(database.url),
      startConsoleServer(database.url),
      createTestAccount(database.url, "admin", `Ada-${kind}`),
    ]);
    adminCookie = await sessionCookie(database.url, admin);
    const api = configApi(first);
    const account = await api("POST", "/api/admin/service-accounts", { cookie: adminCookie, body: { name: "ci-bot", role: "reviewer" } });
    expect(account).toMatchObject({ status: 201, body: { ok: true, data: { name: "ci-bot", role: "reviewer" } } });
    const created = await api("POST", "/api/admin/tokens", {
      cookie: adminCookie,
      body: { name: "deploy pipeline", scopes: ["queue:read", "decisions:write"], serviceAccountId: account.body.data.id },
    });
    expect(created.status).toBe(201);
    ({ token: ciToken, id: ciTokenId } = created.body.data);
    const reader = await api("POST", "/api/admin/tokens", {
      cookie: adminCookie,
      body: { name: "dashboard", scopes: ["queue:read"], serviceAccountId: account.body.data.id },
    });
    readOnlyToken = reader.body.data.token;
  }, 150_000);
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
  });

  const { call, refusedWithOnly } = tokenRequests(() => database.url);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it("is answered once and kept only as its hash and prefix", async () => {
    expect(ciToken).toMatch(/^aat_[A-Za-z0-9_-]{43}$/);
    const row = await (await getDb(database.url)).apiToken.findUniqueOrThrow({ where: { id: ciTokenId } });
    expect(row.hash).toBe(createHash("sha256").update(ciToken).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(ciToken.slice(12));
    expect(row.prefix).toBe(ciToken.slice(0, 12));
    const listed = await call(first, "GET", "/api/admin/tokens", { cookie: adminCookie });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(ciToken.slice(12));
    expect(listed.body.data.tokens).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: ciTokenId,
          prefix: ciToken.slice(0, 12),
          status: "active",
          owner: expect.objectContaining({ label: "service-account:ci-bot" }),
        }),
      ]),
    );
  });

  it("reads the queue and approves a waiting call on either instance; the audit row names the token", async () => {
    const run: DemoRun = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-TOKEN", "12.00 EUR"));
    for (const server of [first, second]) {
      const queue = await call(server, "GET", "/api/queue", bearer(ciToken));
      expect(queue.status).toBe(200);
      expect(JSON.stringify(queue.body)).toContain(run.runId);
    }
    // No Origin check for a bearer (no cookie to forge): even a made-up Origin is fine.
    const approved = await call(
      second,
      "POST",
      "/api/decisions",
      { ...bearer(ciToken), origin: "https://elsewhere.example" },
      { action: "approve", ...run.ref },
    );
    expect(approved, JSON.stringify(approved.body)).toMatchObject({ status: 200, body: { ok: true } });
    const rows = await (await getDb(database.url)).auditEvent.findMany({ where: { runId: run.runId, outcome: "recorded" } });
    expect(rows).toEqual([
      expect.objectContaining({
        reviewer: "service-account:ci-bot",
        via: "api",
        tokenId: ciTokenId,
        tokenName: "deploy pipeline",
        authMethod: "token",
      }),
    ]);
  });

  it("records a session's decision as made with a password", async () => {
    const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-SESSION", "3.00 EUR"));
    const approved = await call(
      first,
      "POST",
      "/api/decisions",
      { cookie: adminCookie, origin: first.url },
      { action: "approve", ...run.ref },
    );
    expect(approved.status).toBe(200);
    const row = await (await getDb(database.url)).auditEvent.findFirstOrThrow({ where: { runId: run.runId, outcome: "recorded" } });
    expect(row).toMatchObject({ authMethod: "password", tokenId: null, tokenName: null, via: "api" });
  });

  it("shows when and from where a token was last used, written at most once a minute", async () => {
    const db = await getDb(database.url);
    const used = await db.apiToken.findUniqueOrThrow({ where: { id: ciTokenId } });
    expect(used.lastUsedAt).not.toBeNull();
    expect(used.lastUsedAddress).toBe("127.0.0.1");
    for (let i = 0; i < 3; i++) expect((await call(first, "GET", "/api/queue", bearer(ciToken))).status).toBe(200);
    const again = await db.apiToken.findUniqueOrThrow({ where: { id: ciTokenId } });
    expect(again.lastUsedAt).toEqual(used.lastUsedAt);
  });

  const decision = { action: "approve", runId: "run-that-does-not-matter", toolCallId: "call-1" };

  it.each([
    ["an unknown token", { authorization: `Bearer aat_${"A".repeat(43)}` }, /API token is not valid/],
    ["Bearer and nothing", { authorization: "Bearer" }, /must be `Bearer aat_…`/],
    ["two tokens", { authorization: `Bearer aat_${"A".repeat(43)} aat_${"B".repeat(43)}` }, /must be `Bearer aat_…`/],
    ["a token of another shape", { authorization: "Bearer sk_live_123" }, /must be `Bearer aat_…`/],
    ["a 10 KB header", { authorization: `Bearer ${"x".repeat(10_240)}` }, /must be `Bearer aat_…`/],
    ["another scheme and no session", { authorization: "Basic YWRtaW46YWRtaW4=" }, /Sign in to continue/],
  ])("refuses %s with 401 and one anonymous refusal row", async (_name, headers, message) => {
    const { answer, added } = await refusedWithOnly(() => call(first, "POST", "/api/decisions", headers, decision));
    expect(answer).toMatchObject({
      status: 401,
      body: { ok: false, error: { code: "unauthenticated", message: expect.stringMatching(message) } },
    });
    expect(added).toEqual([expect.objectContaining({ reviewer: "anonymous", code: "unauthenticated" })]);
    expect(added[0]!.message!.length).toBeLessThan(300);
  });

  it("refuses a service account's token changing a profile: it has none", async () => {
    for (const [method, path, body] of [
      ["PATCH", "/api/profile", { locale: "ko" }],
      ["PUT", "/api/profile/notifications", { email: "off" }],
    ] as const) {
      const { answer } = await refusedWithOnly(() => call(first, method, path, bearer(ciToken), body));
      expect(answer, path).toMatchObject({ status: 403, body: { error: { message: "A service account has no profile to change." } } });
    }
    expect(await (await getDb(database.url)).notificationPreference.count()).toBe(0);
  });

  it("refuses a token without the scope (403) and names it on the refusal row", async () => {
    const { answer, added } = await refusedWithOnly(() => call(first, "POST", "/api/decisions", bearer(readOnlyToken), decision));
    expect(answer).toMatchObject({
      status: 403,
      body: { error: { code: "forbidden", message: expect.stringMatching(/needs the decisions:write scope/) } },
    });
    expect(added).toEqual([
      expect.objectContaining({ reviewer: "service-account:ci-bot", tokenName: "dashboard", authMethod: "token", via: "api" }),
    ]);
  });

  it("refuses a service account on admin routes, and a token creating tokens", async () => {
    for (const [method, path, body] of [
      ["GET", "/api/admin/users", undefined],
      ["GET", "/api/admin/tokens", undefined],
      ["POST", "/api/admin/service-accounts", { name: "sneaky", role: "admin" }],
    ] as const) {
      const { answer, added } = await refusedWithOnly(() => call(first, method, path, bearer(ciToken), body));
      expect(answer, `${method} ${path}`).toMatchObject({ status: 403, body: { ok: false, error: { code: "forbidden" } } });
      expect(added).toEqual([]);
    }
    const created = await call(
      first,
      "POST",
      "/api/profile/tokens",
      { cookie: adminCookie, origin: first.url },
      { name: "mine", scopes: ["admin", "queue:read"] },
    );
    expect(created.status).toBe(201);
    const { answer } = await refusedWithOnly(() =>
      call(first, "POST", "/api/admin/tokens", bearer(created.body.data.token), { name: "another", scopes: ["admin"] }),
    );
    expect(answer).toMatchObject({ status: 403, body: { error: { message: expect.stringMatching(/cannot create tokens/) } } });
  });

  it("never lends a bearer request the cookie's rights", async () => {
    const wrong = await call(first, "GET", "/api/admin/users", { cookie: adminCookie, authorization: `Bearer aat_${"C".repeat(43)}` });
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: "unauthenticated" } } });
    const reviewers = await call(first, "GET", "/api/admin/users", { cookie: adminCookie, ...bearer(ciToken) });
    expect(reviewers).toMatchObject({ status: 403, body: { error: { code: "forbidden", message: expect.stringMatching(/reviewer/) } } });
  });

  it("refuses an expired token with 401", async () => {
    const created = await call(
      first,
      "POST",
      "/api/profile/tokens",
      { cookie: adminCookie, origin: first.url },
      { name: "short-lived", scopes: ["decisions:write"], expiresInDays: 1 },
    );
    // A day has passed: the stored expiry is what every check reads.
    await (
      await getDb(database.url)
    ).apiToken.update({ where: { id: created.body.data.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const { answer, added } = await refusedWithOnly(() =>
      call(second, "POST", "/api/decisions", bearer(created.body.data.token), decision),
    );
    expect(answer).toMatchObject({ status: 401, body: { error: { message: expect.stringMatching(/has expired/) } } });
    expect(added).toEqual([
      expect.objectContaining({ reviewer: "anonymous", tokenId: created.body.data.id, tokenName: "short-lived", authMethod: "token" }),
    ]);
  });

  it("stops a token revoked on one instance at once on the other", async () => {
    const created = await call(
      first,
      "POST",
      "/api/profile/tokens",
      { cookie: adminCookie, origin: first.url },
      { name: "revoke-me", scopes: ["queue:read", "decisions:write"] },
    );
    const token = created.body.data.token as string;
    expect((await call(second, "GET", "/api/queue", bearer(token))).status).toBe(200);
    const revoked = await call(
      first,
      "DELETE",
      `/api/profile/tokens/${created.body.data.id}`,
      { cookie: adminCookie, origin: first.url },
      {},
    );
    expect(revoked).toMatchObject({ status: 200, body: { data: { status: "revoked" } } });
    expect(await call(second, "GET", "/api/queue", bearer(token))).toMatchObject({
      status: 401,
      body: { error: { message: expect.stringMatching(/was revoked/) } },
    });
    const { answer, added } = await refusedWithOnly(() => call(second, "POST", "/api/decisions", bearer(token), decision));
    expect(answer.status).toBe(401);
    expect(added).toEqual([expect.objectContaining({ tokenId: created.body.data.id, tokenName: "revoke-me" })]);
  });

  it.each([
    ["no scopes", { name: "x", scopes: [] }, /at least one scope/],
    ["an unknown scope", { name: "x", scopes: ["everything"] }, /each scope must be one of/],
    ["a NUL in the name", { name: "x\u0000y", scopes: ["queue:read"] }, /NUL/],
    ["a lone surrogate in the name", { name: "x\ud800", scopes: ["queue:read"] }, /name/],
    ["an unknown field", { name: "x", scopes: ["queue:read"], userId: "someone-else" }, /unknown field/],
    ["a scope above the owner's role", { name: "x", scopes: ["admin"], serviceAccountId: "SA" }, /never acts above/],
    ["an expiry of 0 days", { name: "x", scopes: ["queue:read"], expiresInDays: 0 }, /at least 1/],
  ])("refuses a token with %s and stores nothing", async (_name, body, message) => {
    const accounts = (await call(first, "GET", "/api/admin/service-accounts", { cookie: adminCookie })).body.data as Array<{ id: string }>;
    const sent = "serviceAccountId" in body ? { ...body, serviceAccountId: accounts[0]!.id } : body;
    const { answer, added } = await refusedWithOnly(() =>
      call(first, "POST", "/api/admin/tokens", { cookie: adminCookie, origin: first.url }, sent),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error!.message).toMatch(message);
    expect(added).toEqual([]);
  });

  it("answers 404 for revoking somebody else's token from /profile", async () => {
    const rita = await createTestAccount(database.url, "reviewer", `Rita-${kind}`);
    const ritaCookie = await sessionCookie(database.url, rita);
    const answer = await call(first, "DELETE", `/api/profile/tokens/${ciTokenId}`, { cookie: ritaCookie, origin: first.url }, {});
    expect(answer).toMatchObject({ status: 404, body: { error: { code: "token_not_found" } } });
    expect((await (await getDb(database.url)).apiToken.findUniqueOrThrow({ where: { id: ciTokenId } })).revokedAt).toBeNull();
  });
});
