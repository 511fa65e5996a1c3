/**
 * Webhook URLs as admins add them (the createWebhook server action), against real console servers
 * on SQLite and PostgreSQL: the check used to look at the URL as `new URL()` normalised it (a tab
 * or a line break dropped, a NUL percent-encoded) and then save the text as sent, so a header
 * injection or an unstorable NUL was saved as an enabled endpoint. Now such text is refused with
 * invalid_input naming `url`, nothing is stored, and a URL that passes is stored as checked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { callServerAction, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";

/** A public address (TEST-NET-3): it passes the private-address check without a DNS lookup. */
const HOST = "203.0.113.10";

const HOSTILE = {
  "a header injected after a line break": `http://${HOST}/a\r\nX-Injected: 1`,
  "a tab inside the host": `http://203.0.\t113.10/hooks`,
  "a NUL in the path": `http://${HOST}/a\u0000b`,
  "a lone surrogate": `http://${HOST}/\ud800`,
  "a C1 control character": `http://${HOST}/a\u0085b`,
  "DEL in the query": `http://${HOST}/hooks?a=\u007f`,
};

describe.each(["sqlite", "postgres"] as const)("webhook URLs on %s", { timeout: 180_000 }, (kind) => {
  let database: TestDatabase;
  let server: ConsoleServer;
  let cookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [started, admin] = await Promise.all([startConsoleServer(database.url), createTestAccount(database.url, "admin", "Wendy")]);
    server = started;
    cookie = await sessionCookie(database.url, admin);
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
    await disconnectDb(database.url);
    await database.drop();
  });

  const create = (url: string) =>
    callServerAction(server, "createWebhook", [{ url, eventTypes: ["call.waiting"], slack: false }], { cookie, page: "/admin/webhooks" });
  const endpoints = async () => (await getDb(database.url)).webhookEndpoint.findMany({ orderBy: { id: "asc" } });

  it("refuses control characters and invalid text with invalid_input naming url, and stores nothing", async () => {
    const { result: kept } = await create(`http://${HOST}/kept`);
    expect(kept).toMatchObject({ ok: true });
    const before = await endpoints();
    expect(before).toHaveLength(1);
    for (const [what, url] of Object.entries(HOSTILE)) {
      const { status, result } = await create(url);
      expect({ what, status }).toEqual({ what, status: 200 });
      expect({ what, result }).toMatchObject({
        what,
        result: { ok: false, error: { code: "invalid_input", message: expect.stringMatching(/^url contains (a|an) /) } },
      });
    }
    expect(await endpoints()).toEqual(before);
  });

  it("stores the URL exactly as it was checked: the normalised href, not the text as typed", async () => {
    const typed = `HTTP://${HOST}:80/x/../Hooks/caf\u00e9?q=a b#frag`;
    const { result } = await create(`  ${typed}  `);
    expect(result).toMatchObject({ ok: true, data: { id: expect.any(String), secret: expect.stringMatching(/^whsec_/) } });
    const stored = await (await getDb(database.url)).webhookEndpoint.findUniqueOrThrow({ where: { id: result!.data.id } });
    expect(stored.url).toBe(`http://${HOST}/Hooks/caf%C3%A9?q=a%20b#frag`);
    expect(stored.url).toBe(new URL(typed).href);
    expect(stored.enabled).toBe(true);
  });

  it("still refuses what the address check refuses, after normalising", async () => {
    const before = await endpoints();
    for (const url of ["http://0x7f.1/hooks", "http://[::ffff:127.0.0.1]/hooks", "ftp://203.0.113.10/", "http://user:pw@203.0.113.10/"]) {
      const { result } = await create(url);
      expect({ url, result }).toMatchObject({ url, result: { ok: false, error: { code: "invalid_input" } } });
    }
    expect(await endpoints()).toEqual(before);
  });
});
