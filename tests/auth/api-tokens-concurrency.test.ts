/**
 * API tokens and service accounts written at the same moment on two console servers on one database
 * (SQLite and PostgreSQL), as two admins on two instances of a deployment would: the same service
 * account created twice is one row, one 201 and one 409; a token revoked twice is revoked once, with
 * one audit row, and both answers say by whom and when; two tokens made at once for one account both
 * work and are both listed. The audit chain still verifies after the concurrent writes, with one
 * row for each creation and each revoke.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { tokenRequests } from "../helpers/tokens.ts";

const ROUNDS = 4;

describe.each(["sqlite", "postgres"] as const)("API tokens written at once on two instances (%s)", { timeout: 300_000 }, (kind) => {
  const database = useTestDatabase(kind);
  let first: ConsoleServer;
  let second: ConsoleServer;
  /** Ada asks the first instance, Bob the second. */
  let ada: { server: ConsoleServer; headers: Record<string, string>; email: string };
  let bob: typeof ada;
  let serviceAccountId: string;

  beforeAll(async () => {
    const [started1, started2, adaAccount, bobAccount] = await Promise.all([
      startConsoleServer(database.url),
      startConsoleServer(database.url),
      createTestAccount(database.url, "admin", `Ada-${kind}`),
      createTestAccount(database.url, "admin", `Bob-${kind}`),
    ]);
    [first, second] = [started1, started2];
    ada = { server: first, headers: { cookie: await sessionCookie(database.url, adaAccount), origin: first.url }, email: adaAccount.email };
    bob = {
      server: second,
      headers: { cookie: await sessionCookie(database.url, bobAccount), origin: second.url },
      email: bobAccount.email,
    };
    const created = await call(first, "POST", "/api/admin/service-accounts", ada.headers, { name: "ci-bot", role: "reviewer" });
    expect(created.status).toBe(201);
    serviceAccountId = created.body.data.id;
  }, 150_000);
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
  });

  const { call } = tokenRequests(() => database.url);
  const both = <T>(ask: (admin: typeof ada) => Promise<T>) => Promise.all([ask(ada), ask(bob)]);

  async function newToken(name: string) {
    const created = await call(first, "POST", "/api/admin/tokens", ada.headers, { name, scopes: ["queue:read"], serviceAccountId });
    expect(created.status).toBe(201);
    return created.body.data as { id: string; token: string };
  }

  it("creates a service account once when two admins ask for the same name at the same moment", async () => {
    const db = await getDb(database.url);
    for (let round = 0; round < ROUNDS; round++) {
      const name = `deploy-${round}`;
      const answers = await both(({ server, headers }) =>
        call(server, "POST", "/api/admin/service-accounts", headers, { name, role: "reviewer" }),
      );
      expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers)).toEqual([201, 409]);
      const refused = answers.find((answer) => answer.status === 409)!;
      expect(refused.body).toMatchObject({
        ok: false,
        error: { code: "service_account_exists", message: `A service account named "${name}" exists already.` },
      });
      expect(await db.serviceAccount.count({ where: { name } })).toBe(1);
    }
  });

  it("revokes a token once when two admins revoke it at the same moment: one audit row, both answers agree", async () => {
    const db = await getDb(database.url);
    for (let round = 0; round < ROUNDS; round++) {
      const token = await newToken(`revoked-twice-${round}`);
      const answers = await both(({ server, headers }) => call(server, "DELETE", `/api/admin/tokens/${token.id}`, headers, {}));
      for (const answer of answers) {
        expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 200, body: { ok: true, data: { status: "revoked" } } });
      }
      const [one, other] = answers.map((answer) => answer.body.data as { revokedAt: string; revokedBy: string });
      // The second to ask is told who revoked it first, and when: the one stored revocation.
      expect(other).toMatchObject({ revokedAt: one!.revokedAt, revokedBy: one!.revokedBy });
      expect([ada.email, bob.email]).toContain(one!.revokedBy);
      const stored = await db.apiToken.findUniqueOrThrow({ where: { id: token.id } });
      expect(stored).toMatchObject({ revokedAt: new Date(one!.revokedAt), revokedBy: one!.revokedBy });
      const audited = await db.auditEvent.findMany({ where: { action: "revoke-token", message: { contains: token.id } } });
      expect(audited).toEqual([
        expect.objectContaining({ reviewer: one!.revokedBy, outcome: "recorded", authMethod: "password", at: new Date(one!.revokedAt) }),
      ]);
      expect((await call(second, "GET", "/api/queue", { authorization: `Bearer ${token.token}` })).status).toBe(401);
    }
  });

  it("makes two tokens for one account at the same moment: both work on both instances, both are listed", async () => {
    const made = await both(({ server, headers }) =>
      call(server, "POST", "/api/admin/tokens", headers, {
        name: `at-once by ${headers.origin}`,
        scopes: ["queue:read"],
        serviceAccountId,
      }),
    );
    expect(made.map((answer) => answer.status)).toEqual([201, 201]);
    const tokens = made.map((answer) => answer.body.data as { id: string; token: string; prefix: string });
    expect(new Set(tokens.map((token) => token.id)).size).toBe(2);
    expect(tokens[0]!.token).not.toBe(tokens[1]!.token);
    for (const token of tokens) {
      for (const server of [first, second]) {
        expect((await call(server, "GET", "/api/queue", { authorization: `Bearer ${token.token}` })).status).toBe(200);
      }
    }
    const listed = await call(second, "GET", "/api/admin/tokens", { cookie: bob.headers.cookie! });
    const ids = (listed.body.data.tokens as Array<{ id: string; owner: { label: string }; status: string }>)
      .filter((token) => tokens.some((made) => made.id === token.id))
      .map((token) => ({ id: token.id, owner: token.owner.label, status: token.status }));
    expect(ids.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      tokens.map((token) => ({ id: token.id, owner: "service-account:ci-bot", status: "active" })).sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it("leaves one audit chain that verifies after the concurrent writes", async () => {
    const verified = await call(first, "GET", "/api/admin/audit/verify", { cookie: ada.headers.cookie! });
    expect(verified).toMatchObject({ status: 200, body: { ok: true, data: { ok: true, problem: null } } });
    // One row per revoke, and one per service account and token created: none twice, however raced.
    const db = await getDb(database.url);
    const [accounts, tokens] = await Promise.all([db.serviceAccount.count(), db.apiToken.count()]);
    expect(await db.auditEvent.count({ where: { action: "create-service-account" } })).toBe(accounts);
    expect(await db.auditEvent.count({ where: { action: "create-token" } })).toBe(tokens);
    expect(verified.body.data.rows).toBe(ROUNDS + accounts + tokens);
  });
});
