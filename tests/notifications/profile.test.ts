/**
 * The profile page and its server action over HTTP, against a real console server (needs a
 * `next build`): a reviewer chooses, support is told notifications are for reviewers and refused
 * by the server whatever it sends; a console with a malformed SMTP_URL refuses to start, saying why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { callServerAction, startConsoleServer, type ConsoleServer } from "../helpers/console-server.ts";
import { useTestDatabase } from "../helpers/databases.ts";

describe.each(["sqlite", "postgres"] as const)("the profile page on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind);
  let server: ConsoleServer;
  let reviewer: { id: string; cookie: string };
  let supportCookie: string;

  beforeAll(async () => {
    // Empty is unset: email off.
    server = await startConsoleServer(database.url, { SMTP_URL: "" });
    const rita = await createTestAccount(database.url, "reviewer", "Rita");
    reviewer = { id: rita.id, cookie: await sessionCookie(database.url, rita) };
    supportCookie = await sessionCookie(database.url, await createTestAccount(database.url, "support", "Sam"));
  }, 120_000);
  afterAll(() => server?.stop());

  const page = async (cookie: string) => (await fetch(`${server.url}/profile`, { headers: { cookie } })).text();
  const choose = (cookie: string, input: unknown) =>
    callServerAction(server, "setNotificationPreference", [input], { cookie, page: "/profile" });

  it("lets a reviewer choose, says email is off, and tells support notifications are for reviewers", async () => {
    const mine = await page(reviewer.cookie);
    expect(mine).toContain("Email is off on this console");
    expect(mine).toContain("Hourly digest");
    expect(mine).toContain('href="/profile"'); // the user menu's link
    expect(await page(supportCookie)).toContain("Notifications are for reviewers");

    expect((await choose(supportCookie, { email: "immediate" })).result).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect((await choose(reviewer.cookie, { email: "weekly" })).result).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    const db = await getDb(database.url);
    expect(await db.notificationPreference.count()).toBe(0);

    expect((await choose(reviewer.cookie, { email: "hourly" })).result).toEqual({ ok: true, data: { email: "hourly" } });
    expect(await db.notificationPreference.findMany({ select: { userId: true, email: true } })).toEqual([
      { userId: reviewer.id, email: "hourly" },
    ]);
  });

  it("does not start with a malformed SMTP_URL, and says so", async () => {
    await expect(startConsoleServer(database.url, { SMTP_URL: "http://mail.example.com", MAIL_FROM: "a@b.example" })).rejects.toThrow(
      /Refusing to start: Email is misconfigured: SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
  });
});
