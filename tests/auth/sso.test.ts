/**
 * Single sign-on through better-auth's generic OAuth plugin, against a real console server and a
 * small OpenID provider on loopback, on SQLite and PostgreSQL: the round trip the sign-in page
 * starts (the routes docs/accounts.md lists), the first sign-in making a `support` account, and an identity
 * provider's hostile claims stored as text the console can hold, or refused without a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { startOidcProvider, type OidcProvider } from "../helpers/oidc-provider.ts";

/** Follows the sign-in page's SSO round trip by hand, carrying cookies like a browser would. */
async function signInWithSso(server: ConsoleServer) {
  const jar = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const start = await fetch(`${server.url}/api/auth/sign-in/social`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ provider: "sso", callbackURL: "/", errorCallbackURL: "/sign-in" }),
  });
  expect(start.status).toBe(200);
  remember(start);
  const { url } = (await start.json()) as { url: string };
  const authorized = await fetch(url, { redirect: "manual" });
  const callback = new URL(authorized.headers.get("location")!);
  // Without BETTER_AUTH_URL better-auth names the host as Next saw it (localhost): the path is what counts.
  expect(callback.pathname).toBe("/api/auth/callback/sso");
  const back = await fetch(`${server.url}${callback.pathname}${callback.search}`, { redirect: "manual", headers: { cookie: cookie() } });
  remember(back);
  return { status: back.status, location: back.headers.get("location") ?? "", cookie: cookie() };
}

describe.each(["sqlite", "postgres"] as const)("single sign-on on %s", { timeout: 180_000 }, (kind) => {
  let database: TestDatabase;
  let provider: OidcProvider;
  let server: ConsoleServer;

  beforeAll(async () => {
    [database, provider] = await Promise.all([createTestDatabase(kind), startOidcProvider({})]);
    server = await startConsoleServer(database.url, {
      OIDC_DISCOVERY_URL: provider.discoveryUrl,
      OIDC_CLIENT_ID: "console-test",
      OIDC_CLIENT_SECRET: "console-test-secret",
      OIDC_PROVIDER_NAME: "Test IdP",
    });
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    await provider?.close();
    await disconnectDb(database.url);
    await database.drop();
  });

  it("signs a new user in as support, their name stored as text the console can hold", async () => {
    provider.claims = {
      sub: `idp-${kind}-1`,
      email: `sam-${kind}@test.example`,
      email_verified: true,
      name: "Sam\u0000 <b>Sso</b> \ud800",
    };
    const signedIn = await signInWithSso(server);
    expect(signedIn.status).toBe(302);
    expect(new URL(signedIn.location, server.url).pathname).toBe("/");
    expect(provider.tokenRequests.at(-1)?.get("code")).toBe("code-for-the-test");
    expect((await fetch(`${server.url}/`, { redirect: "manual", headers: { cookie: signedIn.cookie } })).status).toBe(200);
    const user = await (await getDb(database.url)).user.findUnique({ where: { email: `sam-${kind}@test.example` } });
    expect(user).toMatchObject({ role: "support", name: "Sam\ufffd <b>Sso</b> \ufffd" });
    // The session says it was signed in through SSO: a decision made with it records so (lib/auth/auth.ts).
    const sessions = await (await getDb(database.url)).session.findMany({ where: { userId: user!.id }, select: { authMethod: true } });
    expect(sessions).toEqual([{ authMethod: "sso" }]);
  });

  it.each([
    ["an email", { sub: "idp-2", email: "eve\u0000@test.example", email_verified: true, name: "Eve" }],
    ["a subject", { sub: "idp\u0000-3", email: "mallory@test.example", email_verified: true, name: "Mallory" }],
    ["a lone surrogate in the email", { sub: "idp-4", email: "trudy\ud800@test.example", email_verified: true, name: "Trudy" }],
  ])("refuses %s the database cannot hold: back to the sign-in page, no account, no 500", async (_, claims) => {
    const db = await getDb(database.url);
    const before = { users: await db.user.count(), accounts: await db.account.count() };
    provider.claims = claims;
    const refused = await signInWithSso(server);
    expect(refused.status).toBe(302);
    const location = new URL(refused.location, server.url);
    expect(location.pathname).toBe("/sign-in");
    expect(location.searchParams.get("error")).toBeTruthy();
    expect({ users: await db.user.count(), accounts: await db.account.count() }).toEqual(before);
    const page = await fetch(location);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Single sign-on did not complete");
    expect(server.output()).not.toMatch(/invalid byte sequence|22P05|22021/);
  });
});
