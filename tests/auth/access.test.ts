/**
 * Sign-in and roles at the HTTP level, against real console servers: every page, route handler
 * and server action refuses anonymous requests; support can read but its crafted decisions are
 * refused and change nothing; cross-site posts are refused; sign-in is rate-limited and only ever
 * returns to the console itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie, type TestAccount } from "../helpers/accounts.ts";
import { callServerAction, postDecision, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun, type DemoRun } from "../helpers/demo-runs.ts";

describe("access control over HTTP", () => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let run: DemoRun;
  let support: TestAccount;
  let reviewer: TestAccount;
  let supportCookie: string;
  let reviewerCookie: string;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    [server, run, support, reviewer] = await Promise.all([
      startConsoleServer(database.url),
      suspendDemoRun(database.url, "refunds", refundRequest("ORD-8001")),
      createTestAccount(database.url, "support", "Sam"),
      createTestAccount(database.url, "reviewer", "Rita"),
    ]);
    [supportCookie, reviewerCookie] = await Promise.all([sessionCookie(database.url, support), sessionCookie(database.url, reviewer)]);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  /** Everything a refused request must leave as it was. */
  async function untouched() {
    const db = await getDb(database.url);
    return {
      snapshots: (await db.workflowSnapshot.findMany({ where: { runId: run.runId }, orderBy: { workflowName: "asc" } })).map(
        (row) => `${row.workflowName}/${row.status}/${row.version}/${row.snapshot}`,
      ),
      decisions: await db.toolCallDecision.count(),
      effects: await db.toolEffect.count(),
      suggestions: await db.suggestion.count(),
      rules: await db.rule.count(),
    };
  }

  const get = (path: string, cookie?: string) => fetch(`${server.url}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });

  it.each(["/", `/runs/${"x".repeat(8)}`, "/history", "/admin/users", "/?resourceId=cust_1"])(
    "sends anonymous visitors of %s to sign-in",
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(307);
      expect(response.headers.get("location")).toMatch(/\/sign-in\?next=/);
    },
  );

  it("shows the sign-in page to anonymous visitors", async () => {
    const response = await get("/sign-in");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Sign in");
  });

  it.each(["/api/runs", "/history/export", "/api/health/session"])("answers anonymous %s with 401", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ ok: false, error: { code: "unauthenticated" } });
  });

  it("refuses anonymous decisions through the API and through the server actions themselves", async () => {
    const before = await untouched();
    expect(await postDecision(server, null, { action: "approve", ...run.ref })).toMatchObject({
      status: 401,
      body: { error: { code: "unauthenticated" } },
    });
    for (const [name, args] of [
      ["approveToolCall", [run.ref]],
      ["declineToolCall", [{ ...run.ref, reason: "no" }]],
      ["declineAndSuggest", [{ ...run.ref, args: '{"amount": 1}' }]],
      ["approveAndTrust", [{ ...run.ref, duration: "1h" }]],
      ["resumeToolCall", [{ ...run.ref, resumeData: "{}" }]],
      ["browseRuns", [{ params: {} }]],
      ["readRun", [{ runId: run.runId }]],
      ["readCallDecisions", [{ runId: run.runId }]],
      ["readConversation", [{ runId: run.runId }]],
      ["readToolInfo", [run.ref]],
      ["readEarlierDecisions", [run.ref]],
      ["readEarlierInThread", [{ runId: run.runId }]],
    ] as const) {
      const { result } = await callServerAction(server, name, [...args]);
      expect(result, name).toMatchObject({ ok: false, error: { code: "unauthenticated" } });
    }
    expect(await untouched()).toEqual(before);
  });

  it("refuses anonymous, support and cross-site bulk decisions over HTTP without touching the run", async () => {
    const postBulk = (cookie: string | null, body: unknown, origin = server.url) =>
      fetch(`${server.url}/api/decisions/bulk`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { ok: boolean; error?: any } }));
    const before = await untouched();
    const db = await getDb(database.url);
    const audited = await db.auditEvent.count();
    const body = { action: "approve", calls: [run.ref] };
    expect(await postBulk(null, body)).toMatchObject({ status: 401, body: { error: { code: "unauthenticated" } } });
    expect(await postBulk(supportCookie, body)).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
    expect(await postBulk(reviewerCookie, body, "https://evil.example")).toMatchObject({
      status: 403,
      body: { error: { code: "cross_site" } },
    });
    expect(await untouched()).toEqual(before);
    // The anonymous and the support refusals are recorded once each (a cross-site post is refused before anything).
    const rows = await db.auditEvent.findMany({ where: { id: { gt: audited } }, orderBy: { id: "asc" } });
    expect(rows.map((row) => [row.reviewer, row.code])).toEqual([
      ["anonymous", "unauthenticated"],
      [support.email, "forbidden"],
    ]);
    expect(rows[1]!.message).toMatch(new RegExp(`^Bulk approve of 1 call refused: .* Calls: ${run.runId}/${run.ref.toolCallId}\\.$`));
  });

  it("answers /api/health/session with a constant for any signed-in reader, and for a made-up cookie with 401", async () => {
    for (const cookie of [supportCookie, reviewerCookie]) {
      const response = await get("/api/health/session", cookie);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true });
    }
    const forged = `${reviewerCookie.split("=")[0]}=not-a-session.signature`;
    expect((await get("/api/health/session", forged)).status).toBe(401);
  });

  it("lets support read, and refuses support's crafted decisions without touching the run", async () => {
    expect((await get("/", supportCookie)).status).toBe(200);
    expect((await get(`/runs/${run.runId}`, supportCookie)).status).toBe(200);
    expect(await (await get(`/api/runs?resourceId=${run.resource}`, supportCookie)).json()).toMatchObject({ ok: true, data: { total: 1 } });
    expect((await get("/history/export", supportCookie)).status).toBe(200);

    const before = await untouched();
    expect(await postDecision(server, supportCookie, { action: "approve", ...run.ref })).toMatchObject({
      status: 403,
      body: { error: { code: "forbidden" } },
    });
    const { result } = await callServerAction(server, "approveToolCall", [run.ref], { cookie: supportCookie, page: `/runs/${run.runId}` });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "forbidden", message: expect.stringMatching(/Your role \(support\) may not/) },
    });
    expect(
      (await callServerAction(server, "resumeToolCall", [{ ...run.ref, resumeData: "{}" }], { cookie: supportCookie })).result,
    ).toMatchObject({
      ok: false,
      error: { code: "forbidden" },
    });
    const [suggestion, forbidden] = [{ ...run.ref, args: '{"amount": 1}' }, { error: { code: "forbidden" } }];
    const sent = { action: "decline_and_suggest", ...suggestion };
    expect(await postDecision(server, supportCookie, sent)).toMatchObject({ status: 403, body: forbidden });
    expect((await callServerAction(server, "declineAndSuggest", [suggestion], { cookie: supportCookie })).result).toMatchObject(forbidden);
    // Approve and trust: support may neither approve nor make a rule.
    const trust = { ...run.ref, duration: "today", sameArguments: ["amount"] };
    expect(await postDecision(server, supportCookie, { action: "approve_and_trust", ...trust })).toMatchObject({
      status: 403,
      body: forbidden,
    });
    expect((await callServerAction(server, "approveAndTrust", [trust], { cookie: supportCookie })).result).toMatchObject(forbidden);
    expect(await untouched()).toEqual(before);
    const refusals = await (await getDb(database.url)).auditEvent.findMany({ where: { runId: run.runId, code: "forbidden" } });
    expect(refusals.map((event) => event.reviewer)).toEqual(Array(7).fill(support.email));
  });

  it("keeps support and reviewers out of user management", async () => {
    const response = await get("/admin/users", reviewerCookie);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("You cannot open this page");
    const { result } = await callServerAction(
      server,
      "createUser",
      [{ name: "Eve", email: "eve@test.example", role: "admin", password: "0123456789ab" }],
      {
        cookie: reviewerCookie,
        page: "/admin/users",
      },
    );
    expect(result).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(await (await getDb(database.url)).user.count({ where: { email: "eve@test.example" } })).toBe(0);
  });

  it("refuses cross-site posts, to the API and to server actions", async () => {
    const before = await untouched();
    const api = await postDecision(server, reviewerCookie, { action: "approve", ...run.ref }, "https://evil.example");
    expect(api).toMatchObject({ status: 403, body: { error: { code: "cross_site" } } });
    const form = await fetch(`${server.url}/api/decisions`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: reviewerCookie },
      body: `action=approve&runId=${run.runId}&toolCallId=${run.ref.toolCallId}`,
    });
    expect(form.status).toBe(403);
    const action = await callServerAction(server, "approveToolCall", [run.ref], {
      cookie: reviewerCookie,
      origin: "https://evil.example",
      page: `/runs/${run.runId}`,
    });
    expect(action.result?.ok).not.toBe(true);
    expect(action.status).toBeGreaterThanOrEqual(400);
    expect(await untouched()).toEqual(before);
  });

  it("lets a reviewer decide with the same cookie from the console itself", async () => {
    const { result } = await callServerAction(server, "approveToolCall", [run.ref], { cookie: reviewerCookie, page: `/runs/${run.runId}` });
    expect(result).toMatchObject({ ok: true, data: { answer: expect.stringContaining("re_ord8001") } });
    expect(await (await getDb(database.url)).toolEffect.count({ where: { toolCallId: run.ref.toolCallId } })).toBe(1);
  });

  it("signs in with email and password, and signs out", async () => {
    const fresh = server;
    {
      const signIn = await fetch(`${fresh.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: fresh.url },
        body: JSON.stringify({ email: reviewer.email, password: reviewer.password }),
      });
      expect(signIn.status).toBe(200);
      const setCookie = signIn.headers.getSetCookie().find((line) => /session_token=/.test(line))!;
      expect(setCookie).toMatch(/HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Lax/i);
      const cookie = setCookie.split(";")[0]!;
      expect((await fetch(`${fresh.url}/`, { redirect: "manual", headers: { cookie } })).status).toBe(200);
      const signOut = await fetch(`${fresh.url}/api/auth/sign-out`, {
        method: "POST",
        headers: { cookie, origin: fresh.url, "content-type": "application/json" },
        body: "{}",
      });
      expect(signOut.status).toBe(200);
      expect((await fetch(`${fresh.url}/`, { redirect: "manual", headers: { cookie } })).status).toBe(307);
    }
  });
  it("sends a signed-in visitor of /sign-in?next=<another site, however written> on within the console", async () => {
    for (const next of [
      "%2F%09%2Fevil.example%2F",
      "%2F%0D%2Fevil.example",
      "%2F%0A%2Fevil.example",
      "%2F%5Cevil.example",
      "%2F.%2F%2Fevil.example",
      "https%3A%2F%2Fevil.example",
    ]) {
      const response = await get(`/sign-in?next=${next}`, reviewerCookie);
      expect(response.status, next).toBe(307);
      expect(new URL(response.headers.get("location")!, server.url).origin, next).toBe(server.url);
    }
    const own = await get(`/sign-in?next=${encodeURIComponent("/history?outcome=applied")}`, reviewerCookie);
    expect(own.headers.get("location")).toBe("/history?outcome=applied");
  });

  it("rate-limits sign-in", async () => {
    const attempt = () =>
      fetch(`${server.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ email: reviewer.email, password: "wrong-password-123" }),
      });
    const statuses: number[] = [];
    // One sign-in was used by the test before: 4 more attempts are answered, then 429.
    for (let i = 0; i < 6; i++) statuses.push((await attempt()).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });
});
