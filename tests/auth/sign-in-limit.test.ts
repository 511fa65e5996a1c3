/**
 * The sign-in limit (5 a minute per client) against real console servers: a client cannot buy
 * fresh attempts by writing its own X-Forwarded-For or client-address header, and behind a
 * trusted proxy each client still has its own count instead of all sharing the proxy's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "../../lib/db/client.ts";
import { createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

describe("sign-in limit per client", () => {
  let database: TestDatabase;
  let direct: ConsoleServer;
  let proxied: ConsoleServer;
  let account: TestAccount;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    // One database for both: their clients (127.0.0.1 vs the forwarded addresses) never share a key.
    [direct, proxied, account] = await Promise.all([
      startConsoleServer(database.url),
      startConsoleServer(database.url, { TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8" }),
      createTestAccount(database.url, "reviewer"),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([direct?.stop(), proxied?.stop()]);
    await disconnectDb(database.url);
    await database.drop();
  });

  async function attempt(server: ConsoleServer, headers: Record<string, string>) {
    const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...headers },
      body: JSON.stringify({ email: account.email, password: "wrong-password-123" }),
    });
    return response.status;
  }

  it("counts a client that rotates X-Forwarded-For (and our own header) as one client", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 8; i++) {
      statuses.push(await attempt(direct, { "x-forwarded-for": `203.0.113.${i}`, "x-approvals-client-ip": `198.51.100.${i}` }));
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it("behind trusted proxies, gives each client (the right-most untrusted hop) its own count", async () => {
    // What a proxy chain sends: whatever the client claimed, then the client as the first proxy saw it, then that proxy.
    const via = (client: string, claimed: string) => ({ "x-forwarded-for": `${claimed}, ${client}, 10.1.2.3` });
    const first: number[] = [];
    for (let i = 1; i <= 7; i++) first.push(await attempt(proxied, via("203.0.113.10", `192.0.2.${i}`)));
    expect(first).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // Another client behind the same proxies is not held back by the first one.
    expect(await attempt(proxied, via("203.0.113.11", "192.0.2.1"))).toBe(401);
    expect(await attempt(proxied, via("2001:db8:1::20", "192.0.2.1"))).toBe(401);
  });
});
