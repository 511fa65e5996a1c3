/**
 * better-auth mounts some fifty HTTP endpoints; the console opens six (lib/auth/endpoints.ts, the
 * README's table). Against real console servers on SQLite and PostgreSQL: every endpoint better-auth
 * has is tried with an admin's session, and exactly the README's list answers; the attacks that
 * worked through better-auth's own endpoints (the last admin demoting themself, a NUL in a name)
 * are refused and change nothing; and the console's own setUserRole keeps an admin in place.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAuth } from "../../lib/auth/auth.ts";
import { AUTH_BASE_PATH, AUTH_ENDPOINTS } from "../../lib/auth/endpoints.ts";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie, type TestAccount } from "../helpers/accounts.ts";
import { callServerAction, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

// SSO on, so that its endpoints exist too (nothing listens there: no test signs in through it).
const SSO_ENV = { OIDC_DISCOVERY_URL: "http://127.0.0.1:9/.well-known/openid-configuration", OIDC_CLIENT_ID: "console-test" };
Object.assign(process.env, SSO_ENV);

/** The table of routes under /api/auth/ in docs/accounts.md, as "METHOD /path". */
function readmeAuthRoutes(): string[] {
  const readme = readFileSync("docs/accounts.md", "utf8");
  return [...readme.matchAll(/^\| `(GET|POST)` \| `\/api\/auth(\/[^`]*)` \|/gm)].map(([, method, path]) => `${method} ${path}`);
}

describe.each(["sqlite", "postgres"] as const)("the /api/auth/ routes on %s", { timeout: 240_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let admin: TestAccount;
  let cookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    [server, admin] = await Promise.all([startConsoleServer(database.url, SSO_ENV), createTestAccount(database.url, "admin", "Ada")]);
    cookie = await sessionCookie(database.url, admin);
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  async function users() {
    return (await getDb(database.url)).user.findMany({
      select: { id: true, name: true, email: true, role: true, banned: true },
      orderBy: { email: "asc" },
    });
  }

  function send(method: string, path: string, body: unknown = {}) {
    return fetch(`${server.url}${path}`, {
      method,
      redirect: "manual",
      headers: { cookie, origin: server.url, ...(method === "GET" ? {} : { "content-type": "application/json" }) },
      body: method === "GET" ? undefined : JSON.stringify(body),
    });
  }

  /** Whether the console turned the request away itself (its 404), rather than better-auth answering. */
  async function closed(response: Response): Promise<boolean> {
    if (response.status !== 404) return false;
    const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
    return body?.error?.code === "not_found";
  }

  it("answers on exactly the routes docs/accounts.md lists, out of every one better-auth has", async () => {
    const auth = await getAuth(database.url);
    const mounted = Object.values(auth.api as Record<string, { path?: string; options?: { method?: string | string[] } }>)
      .filter((endpoint) => endpoint.path)
      .flatMap((endpoint) => [endpoint.options?.method ?? "GET"].flat().map((method) => ({ method, path: endpoint.path! })));
    expect(mounted.length).toBeGreaterThan(40);
    const before = await users();
    const open: string[] = [];
    for (const { method, path } of mounted) {
      if (method === "*") continue;
      // Path parameters filled in as the SSO callback's would be.
      const concrete = path.replace(/:[a-zA-Z]+/g, "sso");
      const response = await send(method, `${AUTH_BASE_PATH}${concrete}`);
      if (!(await closed(response))) open.push(`${method} ${concrete}`);
    }
    expect(open.sort()).toEqual(readmeAuthRoutes().sort());
    expect(readmeAuthRoutes().sort()).toEqual(AUTH_ENDPOINTS.map(({ method, path }) => `${method} ${path}`).sort());
    // Sign-out was among them: nothing else about the users changed.
    expect(await users()).toEqual(before);
  });

  it("refuses better-auth's own role and profile changes, however the path is spelt, and changes nothing", async () => {
    cookie = await sessionCookie(database.url, admin);
    const before = await users();
    const attempts = [
      ["/api/auth/admin/set-role", { userId: admin.id, role: "reviewer" }],
      ["/api/auth/admin/set-role/", { userId: admin.id, role: "reviewer" }],
      ["/api/auth//admin/set-role", { userId: admin.id, role: "reviewer" }],
      ["/api/auth/admin%2Fset-role", { userId: admin.id, role: "reviewer" }],
      ["/api/auth/ADMIN/SET-ROLE", { userId: admin.id, role: "reviewer" }],
      ["/api/auth/admin/update-user", { userId: admin.id, data: { role: "support" } }],
      ["/api/auth/update-user", { name: "Ada\u0000Lovelace" }],
      ["/api/auth/update-user", { name: "\ud800" }],
      ["/api/auth/sign-up/email", { email: "mallory@test.example", password: "mallory-password", name: "Mallory" }],
      ["/api/auth/admin/create-user", { email: "eve@test.example", password: "eve-password-123", name: "Eve", role: "admin" }],
      ["/api/auth/admin/impersonate-user", { userId: admin.id }],
      ["/api/auth/admin/remove-user", { userId: admin.id }],
      ["/api/auth/change-password", { currentPassword: admin.password, newPassword: "another-password-1" }],
    ] as const;
    for (const [path, body] of attempts) {
      let response = await send("POST", path, body);
      // Next itself sends a trailing slash away (308) before any handler runs: to a path that is closed too.
      if (response.status === 308) response = await send("POST", new URL(response.headers.get("location")!, server.url).pathname, body);
      expect(response.status, path).toBe(404);
    }
    expect(await users()).toEqual(before);
    // Nor does any other method answer on a closed route (Next would answer OPTIONS itself).
    for (const method of ["OPTIONS", "PUT", "PATCH", "DELETE"]) {
      expect((await send(method, "/api/auth/admin/set-role")).status, method).toBe(404);
    }
    // A callback's state with a NUL is refused before better-auth looks it up (a failed query on PostgreSQL).
    const nul = await send("GET", "/api/auth/callback/sso?code=abc&state=a%00b");
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({ ok: false, error: { code: "invalid_input", message: expect.stringContaining('"state"') } });
    // The session still works: nothing was revoked or impersonated.
    expect((await send("GET", "/api/auth/get-session")).status).toBe(200);
    const session = (await (await send("GET", "/api/auth/get-session")).json()) as { user?: { email?: string } };
    expect(session.user?.email).toBe(admin.email);
  });

  it("keeps an admin: not your own role, never the last admin, and an unknown user is user_not_found", async () => {
    cookie = await sessionCookie(database.url, admin);
    const setRole = async (as: string, userId: string, role: string) =>
      (await callServerAction(server, "setUserRole", [{ userId, role }], { cookie: as })).result;

    expect(await setRole(cookie, admin.id, "reviewer")).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(await setRole(cookie, "no-such-user", "reviewer")).toMatchObject({ ok: false, error: { code: "user_not_found" } });
    expect(await setRole(cookie, admin.id, "owner")).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect((await users()).filter((user) => user.role === "admin").map((user) => user.id)).toEqual([admin.id]);

    // Two admins demoting each other at the same moment: one wins, an admin is left.
    const second = await createTestAccount(database.url, "admin", `Bea-${kind}`);
    const secondCookie = await sessionCookie(database.url, second);
    const results = await Promise.all([setRole(cookie, second.id, "reviewer"), setRole(secondCookie, admin.id, "reviewer")]);
    const admins = (await users()).filter((user) => user.role === "admin");
    expect(admins).toHaveLength(1);
    expect(results.filter((result) => result?.ok)).toHaveLength(1);
    const [loser] = results.filter((result) => !result?.ok);
    // The loser either found themself demoted already (no longer allowed) or was the last admin's demoter.
    expect(loser?.error?.code).toBeOneOf(["forbidden", "invalid_input"]);
  });
});
