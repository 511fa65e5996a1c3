/**
 * Users, roles and one's own email preference over the JSON API (/api/admin/users,
 * /api/profile/notifications), against real console servers on SQLite and PostgreSQL: the same
 * permissions, checks and store as /admin/users and /profile.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAccounts } from "../../lib/auth/users.ts";
import { getDb } from "../../lib/db/client.ts";
import { emailModeOf } from "../../lib/notifications/preferences.ts";
import { startSignedInConsole, stopSignedInConsole, type SignedInConsole } from "../helpers/config-api.ts";
import { type ConsoleServer } from "../helpers/console-server.ts";
import { type TestDatabase } from "../helpers/databases.ts";

describe.each(["sqlite", "postgres"] as const)("users and preferences over the JSON API on %s", { timeout: 120_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let api: SignedInConsole["api"];
  let accounts: SignedInConsole["accounts"];
  let cookies: SignedInConsole["cookies"];

  beforeAll(async () => {
    ({ database, server, api, accounts, cookies } = await startSignedInConsole(kind));
  }, 150_000);

  afterAll(() => stopSignedInConsole({ database, server }));

  const users = async () => (await getDb(database.url)).user.findMany({ orderBy: { id: "asc" } });
  const signIn = (email: string, password: string) =>
    fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email, password }),
    }).then((response) => response.status);

  it("lists accounts without their passwords", async () => {
    const listed = await api("GET", "/api/admin/users", { cookie: cookies.admin });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: accounts.reviewer.id, email: accounts.reviewer.email, role: "reviewer", banned: false }),
      ]),
    );
    expect(JSON.stringify(listed.body)).not.toContain(accounts.reviewer.password);
    expect(JSON.stringify(listed.body)).not.toMatch(/password/i);
  });

  it("adds a user with a given password (201, not echoed) and one without (a generated one, answered once)", async () => {
    const given = await api("POST", "/api/admin/users", {
      cookie: cookies.admin,
      body: { name: "Gina", email: "Gina@Test.example", role: "reviewer", password: "a-long-enough-password" },
    });
    expect(given).toMatchObject({ status: 201, body: { ok: true, data: { email: "gina@test.example", role: "reviewer" } } });
    expect(given.body.data).not.toHaveProperty("password");
    expect(await signIn("gina@test.example", "a-long-enough-password")).toBe(200);

    const generated = await api("POST", "/api/admin/users", {
      cookie: cookies.admin,
      body: { name: "Hal", email: "hal@test.example", role: "support" },
    });
    expect(generated).toMatchObject({ status: 201, body: { ok: true, data: { email: "hal@test.example", role: "support" } } });
    const password = generated.body.data.password as string;
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(await signIn("hal@test.example", password)).toBe(200);
    expect((await listAccounts(database.url)).find((user) => user.email === "hal@test.example")).toMatchObject({
      id: generated.body.data.id,
      role: "support",
      name: "Hal",
    });
  });

  it.each([
    ["malformed JSON", { raw: '{"name":"Eve",' }, 400, "invalid_input", /not valid JSON/],
    [
      "an unknown field",
      { body: { name: "Eve", email: "eve@test.example", role: "admin", banned: false } },
      400,
      "invalid_input",
      /unknown field: banned/,
    ],
    ["a role of its own", { body: { name: "Eve", email: "eve@test.example", role: "owner" } }, 400, "invalid_input", /Role must be one of/],
    ["a NUL in the name", { body: { name: "E\u0000ve", email: "eve@test.example", role: "support" } }, 400, "invalid_input", /NUL/],
    [
      "a short password",
      { body: { name: "Eve", email: "eve@test.example", role: "support", password: "short" } },
      400,
      "invalid_input",
      /at least 10/,
    ],
    [
      "a null password (not left out)",
      { body: { name: "Eve", email: "eve@test.example", role: "support", password: null } },
      400,
      "invalid_input",
      /Password/,
    ],
    ["a number for the email", { body: { name: "Eve", email: 5, role: "support" } }, 400, "invalid_input", /Email is not a valid address/],
    ["an email that exists", { body: { name: "Copy", email: "GINA@test.example", role: "admin" } }, 422, "user_admin", /exist/i],
  ])("refuses a new user with %s, adding nobody", async (_, request, status, code, message) => {
    const before = await users();
    const refused = await api("POST", "/api/admin/users", { cookie: cookies.admin, ...request });
    expect(refused).toMatchObject({ status, body: { ok: false, error: { code } } });
    expect(refused.body.error!.message).toMatch(message);
    expect(await users()).toEqual(before);
  });

  it("changes a role with the page's rules: never your own admin role, 404 for nobody, bad input changes nothing", async () => {
    const patch = (id: string, body: unknown, cookie = cookies.admin) => api("PATCH", `/api/admin/users/${id}`, { cookie, body });
    const hal = (await listAccounts(database.url)).find((user) => user.email === "hal@test.example")!;
    expect(await patch(hal.id, { role: "reviewer" })).toMatchObject({
      status: 200,
      body: { ok: true, data: { userId: hal.id, role: "reviewer" } },
    });
    expect((await listAccounts(database.url)).find((user) => user.id === hal.id)?.role).toBe("reviewer");

    const before = await users();
    expect(await patch(accounts.admin.id, { role: "reviewer" })).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_input", message: expect.stringContaining("cannot remove your own admin role") } },
    });
    expect(await patch(randomUUID(), { role: "support" })).toMatchObject({ status: 404, body: { error: { code: "user_not_found" } } });
    for (const body of [
      { role: "owner" },
      { role: true },
      {},
      { role: "support", userId: accounts.reviewer.id },
      { role: "support", name: "x" },
      [{ role: "support" }],
    ]) {
      expect(await patch(hal.id, body), JSON.stringify(body)).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
    }
    expect(await api("PATCH", `/api/admin/users/${hal.id}`, { cookie: cookies.admin, raw: "role=support" })).toMatchObject({ status: 400 });
    expect(await patch("a%00b", { role: "support" })).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
    expect(await users()).toEqual(before);
  });

  it("keeps anonymous callers (401), reviewers and support (403) and cross-site posts out of users and roles", async () => {
    const before = await users();
    const routes: Array<[string, string, unknown]> = [
      ["GET", "/api/admin/users", undefined],
      ["POST", "/api/admin/users", { name: "Eve", email: "eve@test.example", role: "admin" }],
      ["PATCH", `/api/admin/users/${accounts.reviewer.id}`, { role: "admin" }],
      ["PATCH", `/api/admin/users/${accounts.support.id}`, { role: "admin" }],
    ];
    for (const [method, path, body] of routes) {
      expect(await api(method, path, { body }), `${method} ${path}`).toMatchObject({
        status: 401,
        body: { error: { code: "unauthenticated" } },
      });
      for (const role of ["reviewer", "support"] as const) {
        expect(await api(method, path, { body, cookie: cookies[role] }), `${role} ${method} ${path}`).toMatchObject({
          status: 403,
          body: { error: { code: "forbidden", message: expect.stringContaining("may not manage users") } },
        });
      }
      if (body !== undefined) {
        expect(await api(method, path, { body, cookie: cookies.admin, origin: "https://evil.example" })).toMatchObject({
          status: 403,
          body: { error: { code: "cross_site" } },
        });
      }
    }
    expect(await users()).toEqual(before);
  });

  it("lets a reviewer read and change their own email preference, and nobody else's", async () => {
    expect(await api("GET", "/api/profile/notifications", { cookie: cookies.reviewer })).toMatchObject({
      status: 200,
      body: { ok: true, data: { email: "off", notified: true, emailEnabled: false } },
    });
    expect(await api("PUT", "/api/profile/notifications", { cookie: cookies.reviewer, body: { email: "hourly" } })).toMatchObject({
      status: 200,
      body: { ok: true, data: { email: "hourly" } },
    });
    expect(await emailModeOf(accounts.reviewer.id, database.url)).toBe("hourly");
    expect(await emailModeOf(accounts.admin.id, database.url)).toBe("off");
    expect(await api("GET", "/api/profile/notifications", { cookie: cookies.reviewer })).toMatchObject({
      body: { data: { email: "hourly" } },
    });
    // An admin's choice is their own too.
    expect(await api("PUT", "/api/profile/notifications", { cookie: cookies.admin, body: { email: "immediate" } })).toMatchObject({
      status: 200,
    });
    expect(await emailModeOf(accounts.admin.id, database.url)).toBe("immediate");
    expect(await emailModeOf(accounts.reviewer.id, database.url)).toBe("hourly");
  });

  it("refuses bad preferences, anonymous callers, support's change (never emailed) and cross-site posts, changing nothing", async () => {
    const preferences = async () => (await getDb(database.url)).notificationPreference.findMany({ orderBy: { userId: "asc" } });
    const before = await preferences();
    const put = (request: Parameters<typeof api>[2]) => api("PUT", "/api/profile/notifications", request);
    expect(await api("GET", "/api/profile/notifications")).toMatchObject({ status: 401, body: { error: { code: "unauthenticated" } } });
    expect(await put({ body: { email: "off" } })).toMatchObject({ status: 401, body: { error: { code: "unauthenticated" } } });
    expect(await api("GET", "/api/profile/notifications", { cookie: cookies.support })).toMatchObject({
      status: 200,
      body: { data: { email: "off", notified: false } },
    });
    expect(await put({ cookie: cookies.support, body: { email: "immediate" } })).toMatchObject({
      status: 403,
      body: { error: { code: "forbidden" } },
    });
    expect(await put({ cookie: cookies.reviewer, body: { email: "off" }, origin: "https://evil.example" })).toMatchObject({
      status: 403,
      body: { error: { code: "cross_site" } },
    });
    for (const request of [
      { body: { email: "weekly" } },
      { body: { email: true } },
      { body: { email: "off", userId: accounts.admin.id } },
      { body: { email: "off\u0000" } },
      { body: {} },
      { raw: '{"email":"off"' },
    ]) {
      expect(await put({ cookie: cookies.reviewer, ...request }), JSON.stringify(request)).toMatchObject({
        status: 400,
        body: { error: { code: "invalid_input" } },
      });
    }
    expect(await api("GET", "/api/profile/notifications?userId=x", { cookie: cookies.reviewer })).toMatchObject({ status: 400 });
    expect(await preferences()).toEqual(before);
  });
});
