/**
 * Every grant of access made over HTTP against a real console server (SQLite and PostgreSQL) is in
 * the audit log: a service account, its token, a person's own token, a user, a role change; each one
 * row naming the admin and how they signed in, never the secret; the chain still verifies. The
 * history page shows them under Kind: access changes (in English and Korean), and not under decisions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { tokenRequests } from "../helpers/tokens.ts";

describe.each(["sqlite", "postgres"] as const)("access changes over HTTP on %s", { timeout: 300_000 }, (kind) => {
  const database = useTestDatabase(kind);
  let server: ConsoleServer;
  let ada: Record<string, string>;
  let adaEmail: string;
  const { call } = tokenRequests(() => database.url);

  beforeAll(async () => {
    const [started, admin] = await Promise.all([startConsoleServer(database.url), createTestAccount(database.url, "admin", `Ada-${kind}`)]);
    server = started;
    adaEmail = admin.email;
    ada = { cookie: await sessionCookie(database.url, admin), origin: server.url };
  }, 150_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("writes one row for each grant, naming who and how they signed in, and the chain verifies", async () => {
    const account = await call(server, "POST", "/api/admin/service-accounts", ada, { name: "ci-bot", role: "reviewer" });
    expect(account.status).toBe(201);
    const token = await call(server, "POST", "/api/admin/tokens", ada, {
      name: "deploy pipeline",
      scopes: ["queue:read"],
      serviceAccountId: account.body.data.id,
    });
    const own = await call(server, "POST", "/api/profile/tokens", ada, { name: "laptop", scopes: ["queue:read"], expiresInDays: 7 });
    const user = await call(server, "POST", "/api/admin/users", ada, {
      name: "Grace",
      email: `grace-${kind}@test.example`,
      role: "support",
    });
    expect([token.status, own.status, user.status]).toEqual([201, 201, 201]);
    expect((await call(server, "PATCH", `/api/admin/users/${user.body.data.id}`, ada, { role: "reviewer" })).status).toBe(200);
    // A refused grant (a scope above the account's role) writes nothing.
    expect(
      (await call(server, "POST", "/api/admin/tokens", ada, { name: "x", scopes: ["admin"], serviceAccountId: account.body.data.id }))
        .status,
    ).toBe(400);

    const rows = await (await getDb(database.url)).auditEvent.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((row) => row.action)).toEqual(["create-service-account", "create-token", "create-token", "create-user", "change-role"]);
    for (const row of rows) {
      expect(row).toMatchObject({ reviewer: adaEmail, authMethod: "password", outcome: "recorded", runId: "" });
      for (const secret of [token.body.data.token, own.body.data.token, user.body.data.password])
        expect(JSON.stringify(row)).not.toContain(secret);
    }
    expect(JSON.parse(rows[2]!.args!)).toMatchObject({ kind: "token", name: "laptop", expiresAt: own.body.data.expiresAt });
    expect(JSON.parse(rows[4]!.args!)).toMatchObject({ kind: "user", role: "reviewer", previousRole: "support" });
    const verified = await call(server, "GET", "/api/admin/audit/verify", { cookie: ada.cookie! });
    expect(verified).toMatchObject({ status: 200, body: { data: { ok: true, rows: 5 } } });
  });

  it("shows them on /history under access changes, in the reader's language, and not under decisions", async () => {
    const page = async (query: string, language = "en") => {
      const response = await fetch(`${server.url}/history?${query}`, { headers: { cookie: ada.cookie!, "accept-language": language } });
      expect(response.status).toBe(200);
      return response.text();
    };
    const access = await page(`kind=access&reviewer=${encodeURIComponent(adaEmail)}`);
    expect(access).toContain("5 entries");
    expect(access).toContain('data-testid="access-change"');
    expect(access).toContain("API token “deploy pipeline”");
    expect(access).toContain("Service account ci-bot, role Reviewer");
    expect(access).toContain("User grace-");
    expect(access).toMatch(/name="kind"[\s\S]*?<option value="access" selected=""/);
    const korean = await page("kind=access", "ko");
    expect(korean).toContain("접근 변경");
    expect(korean).toContain("서비스 계정 ci-bot");
    const decisions = await page("kind=decisions&outcome=recorded");
    expect(decisions).not.toContain('data-testid="access-change"');
    expect(decisions).not.toContain("deploy pipeline");
  });
});
