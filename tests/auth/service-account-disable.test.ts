/**
 * Disabling a service account against two real console servers on one database (SQLite and
 * PostgreSQL): its tokens are refused at once on both instances, with a refusal row naming the token
 * where refusals are recorded; enabled again, they work (a revoked one stays revoked). Each change is
 * one audit row under the chain, even when two admins ask at the same moment on two instances; asking
 * for the state it is in changes nothing; a token cannot enable one; reviewers and unknown ids are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { tokenRequests } from "../helpers/tokens.ts";

describe.each(["sqlite", "postgres"] as const)("disabling a service account on %s", { timeout: 300_000 }, (kind) => {
  const database = useTestDatabase(kind);
  let first: ConsoleServer;
  let second: ConsoleServer;
  let ada: Record<string, string>;
  let bob: Record<string, string>;
  let rita: Record<string, string>;
  let account: { id: string; name: string };
  let token: { id: string; token: string };
  let revoked: { id: string; token: string };

  const { call, refusedWithOnly } = tokenRequests(() => database.url);
  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
  const decision = { action: "approve", runId: "run-that-does-not-matter", toolCallId: "call-1" };
  const path = () => `/api/admin/service-accounts/${account.id}`;
  const changes = async () =>
    (await getDb(database.url)).auditEvent.findMany({
      where: { action: { in: ["disable-service-account", "enable-service-account"] } },
      orderBy: { id: "asc" },
    });

  beforeAll(async () => {
    const [started1, started2, adaAccount, bobAccount, ritaAccount] = await Promise.all([
      startConsoleServer(database.url),
      startConsoleServer(database.url),
      createTestAccount(database.url, "admin", `Ada-${kind}`),
      createTestAccount(database.url, "admin", `Bob-${kind}`),
      createTestAccount(database.url, "reviewer", `Rita-${kind}`),
    ]);
    [first, second] = [started1, started2];
    ada = { cookie: await sessionCookie(database.url, adaAccount), origin: first.url };
    bob = { cookie: await sessionCookie(database.url, bobAccount), origin: second.url };
    rita = { cookie: await sessionCookie(database.url, ritaAccount), origin: first.url };
    account = (await call(first, "POST", "/api/admin/service-accounts", ada, { name: "ci-bot", role: "admin" })).body.data;
    const make = async (name: string) =>
      (await call(first, "POST", "/api/admin/tokens", ada, { name, scopes: ["admin"], serviceAccountId: account.id })).body.data;
    [token, revoked] = [await make("deploy pipeline"), await make("old pipeline")];
    expect((await call(first, "DELETE", `/api/admin/tokens/${revoked.id}`, ada, {})).status).toBe(200);
  }, 150_000);
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
  });

  it("stops its tokens at once on both instances, and says so", async () => {
    expect((await call(second, "GET", "/api/queue", bearer(token.token))).status).toBe(200);
    const disabled = await call(first, "PATCH", path(), ada, { disabled: true });
    expect(disabled).toMatchObject({
      status: 200,
      body: { ok: true, data: { id: account.id, name: "ci-bot", disabledAt: expect.any(String), disabledBy: `ada-${kind}@test.example` } },
    });
    for (const server of [second, first]) {
      expect(await call(server, "GET", "/api/queue", bearer(token.token))).toMatchObject({
        status: 401,
        body: {
          ok: false,
          error: { code: "unauthenticated", message: expect.stringMatching(/service-account:ci-bot, which an admin disabled/) },
        },
      });
    }
    const { answer, added } = await refusedWithOnly(() => call(second, "POST", "/api/decisions", bearer(token.token), decision));
    expect(answer.status).toBe(401);
    expect(added).toEqual([expect.objectContaining({ reviewer: "anonymous", tokenId: token.id, tokenName: "deploy pipeline" })]);
    // The lists say why: the live token is "disabled" (it works again once enabled), the revoked one stays revoked.
    const listed = (await call(second, "GET", "/api/admin/tokens", { cookie: bob.cookie! })).body.data;
    const statusOf = (id: string) => listed.tokens.find((row: { id: string }) => row.id === id)?.status;
    expect([statusOf(token.id), statusOf(revoked.id)]).toEqual(["disabled", "revoked"]);
    expect(listed.serviceAccounts).toEqual([expect.objectContaining({ id: account.id, disabledBy: disabled.body.data.disabledBy })]);
    // An admin-scoped token of the disabled account is refused on admin routes too, and changes nothing.
    const { answer: admin, added: none } = await refusedWithOnly(() => call(first, "GET", "/api/admin/tokens", bearer(token.token)));
    expect(admin.status).toBe(401);
    expect(none).toEqual([]);
    expect(await changes()).toEqual([
      expect.objectContaining({
        action: "disable-service-account",
        outcome: "recorded",
        reviewer: disabled.body.data.disabledBy,
        authMethod: "password",
        message: expect.stringMatching(/^Disabled service-account:ci-bot: its API tokens \(2\)/),
        at: new Date(disabled.body.data.disabledAt),
      }),
    ]);
  });

  it("changes nothing, and writes no row, when it is disabled again, twice at the same moment", async () => {
    const before = await (await getDb(database.url)).serviceAccount.findUniqueOrThrow({ where: { id: account.id } });
    const answers = await Promise.all([
      call(first, "PATCH", path(), ada, { disabled: true }),
      call(second, "PATCH", path(), bob, { disabled: true }),
    ]);
    for (const answer of answers) {
      expect(answer).toMatchObject({
        status: 200,
        body: { data: { disabledAt: before.disabledAt!.toISOString(), disabledBy: before.disabledBy } },
      });
    }
    expect(await changes()).toHaveLength(1);
  });

  it("is enabled once when two admins enable it at the same moment; its live tokens work again, a revoked one does not", async () => {
    const answers = await Promise.all([
      call(first, "PATCH", path(), ada, { disabled: false }),
      call(second, "PATCH", path(), bob, { disabled: false }),
    ]);
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, body: { data: { disabledAt: null, disabledBy: null } } });
    const rows = await changes();
    expect(rows.map((row) => row.action)).toEqual(["disable-service-account", "enable-service-account"]);
    expect(rows[1]!.message).toBe("Enabled service-account:ci-bot: its API tokens that are neither revoked nor expired work again.");
    const listed = (await call(first, "GET", "/api/admin/tokens", { cookie: ada.cookie! })).body.data.tokens as Array<{
      id: string;
      status: string;
    }>;
    expect(listed.find((row) => row.id === token.id)?.status).toBe("active");
    for (const server of [first, second]) {
      expect((await call(server, "GET", "/api/queue", bearer(token.token))).status).toBe(200);
      expect(await call(server, "GET", "/api/queue", bearer(revoked.token))).toMatchObject({
        status: 401,
        body: { error: { message: expect.stringMatching(/was revoked/) } },
      });
    }
  });

  it("lets a token disable it but never enable it again", async () => {
    const disabledByToken = await call(second, "PATCH", path(), bearer(token.token), { disabled: true });
    expect(disabledByToken).toMatchObject({ status: 200, body: { data: { disabledBy: "service-account:ci-bot" } } });
    expect((await changes()).at(-1)).toMatchObject({ action: "disable-service-account", authMethod: "token", tokenId: token.id });
    // Disabled, the same token is not valid any more; an admin's own token may not enable it either.
    expect((await call(second, "PATCH", path(), bearer(token.token), { disabled: false })).status).toBe(401);
    const own = (await call(first, "POST", "/api/profile/tokens", ada, { name: "ada's", scopes: ["admin"] })).body.data;
    const { answer } = await refusedWithOnly(() => call(first, "PATCH", path(), bearer(own.token), { disabled: false }));
    expect(answer).toMatchObject({ status: 403, body: { error: { code: "forbidden", message: expect.stringMatching(/cannot enable/) } } });
    expect(await (await getDb(database.url)).serviceAccount.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({
      disabledBy: "service-account:ci-bot",
    });
    expect((await call(first, "PATCH", path(), ada, { disabled: false })).status).toBe(200);
  });

  it.each([
    ["a reviewer", () => rita, () => path(), { disabled: true }, 403, "forbidden"],
    ["no session", () => ({ origin: first.url }), () => path(), { disabled: true }, 401, "unauthenticated"],
    ["an unknown id", () => ada, () => "/api/admin/service-accounts/sa_nobody", { disabled: true }, 404, "service_account_not_found"],
    ["a disabled that is not true or false", () => ada, () => path(), { disabled: "yes" }, 400, "invalid_input"],
    ["an unknown field", () => ada, () => path(), { disabled: true, role: "admin" }, 400, "invalid_input"],
  ])("refuses %s and stores nothing", async (_name, headers, target, body, status, code) => {
    const before = await changes();
    const { answer, added } = await refusedWithOnly(() => call(first, "PATCH", target(), headers(), body));
    expect(answer).toMatchObject({ status, body: { ok: false, error: { code } } });
    expect(added).toEqual([]);
    expect(await changes()).toEqual(before);
    expect(await (await getDb(database.url)).serviceAccount.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({
      disabledAt: null,
    });
  });

  it("leaves an audit chain that verifies", async () => {
    const verified = await call(second, "GET", "/api/admin/audit/verify", { cookie: bob.cookie! });
    expect(verified).toMatchObject({ status: 200, body: { data: { ok: true, problem: null } } });
  });
});
