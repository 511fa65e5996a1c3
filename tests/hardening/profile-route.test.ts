/**
 * The profile's Language and Time zone over the JSON API (GET and PATCH /api/profile), on SQLite and
 * PostgreSQL through a real console server: the operation /profile's server action runs (the same
 * roles: anyone signed in, for themselves; the same checks; the same columns), documented in
 * docs/api-configuration.md.
 */
import { readFileSync } from "node:fs";
import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { languagePreferenceOf } from "../../lib/i18n/preferences.ts";
import { callServerAction } from "../helpers/console-server.ts";
import { startSignedInConsole, stopSignedInConsole, type SignedInConsole } from "../helpers/config-api.ts";

describe("docs/api-configuration.md", () => {
  it("documents GET and PATCH /api/profile", () => {
    const readme = readFileSync("docs/api-configuration.md", "utf8");
    expect(readme).toMatch(/curl localhost:3000\/api\/profile\s/);
    expect(readme).toMatch(/curl -X PATCH localhost:3000\/api\/profile -H 'content-type: application\/json'/);
  });
});

describe.each(["sqlite", "postgres"] as const)("PATCH /api/profile on %s", { timeout: 120_000 }, (kind) => {
  let started: SignedInConsole;

  beforeAll(async () => {
    started = await startSignedInConsole(kind, "Pat");
  }, 150_000);
  afterAll(() => stopSignedInConsole(started));

  it("reads and changes the signed-in user's own language and time zone, for every role", async () => {
    const { api, cookies, accounts, database } = started;
    for (const role of ["admin", "reviewer", "support"] as const) {
      const cookie = cookies[role];
      expect(await api("GET", "/api/profile", { cookie })).toEqual({
        status: 200,
        body: {
          ok: true,
          data: { name: accounts[role].name, email: accounts[role].email, role, locale: null, timeZone: null },
        },
      });
      expect(await api("PATCH", "/api/profile", { cookie, body: { locale: "ko" } })).toEqual({
        status: 200,
        body: { ok: true, data: { locale: "ko", timeZone: null } },
      });
      expect(await api("PATCH", "/api/profile", { cookie, body: { timeZone: "Asia/Seoul" } })).toEqual({
        status: 200,
        body: { ok: true, data: { locale: "ko", timeZone: "Asia/Seoul" } },
      });
      expect(await languagePreferenceOf(accounts[role].id, database.url)).toEqual({ locale: "ko", timeZone: "Asia/Seoul" });
      // "" is the form's "the browser's"; the other field stays.
      expect((await api("PATCH", "/api/profile", { cookie, body: { locale: "" } })).body.data).toEqual({
        locale: null,
        timeZone: "Asia/Seoul",
      });
      expect((await api("GET", "/api/profile", { cookie })).body.data).toMatchObject({ locale: null, timeZone: "Asia/Seoul" });
    }
    // The page's server action is the same operation: it still takes both fields, as the form sends them.
    const saved = await callServerAction(started.server, "setLanguagePreference", [{ locale: "zh-TW", timeZone: "" }], {
      cookie: cookies.support,
    });
    expect(saved.result).toEqual({ ok: true, data: { locale: "zh-TW", timeZone: null } });
  });

  it("refuses anything but our languages and IANA zones, and unstorable text, changing nothing", async () => {
    const { api, cookies, accounts, database, server } = started;
    const cookie = cookies.reviewer;
    await api("PATCH", "/api/profile", { cookie, body: { locale: "ko", timeZone: "Asia/Seoul" } });
    const refusals: Array<[string, unknown]> = [
      ["an unknown language", { locale: "fr" }],
      ["a language we do not have", { locale: "zh-CN" }],
      ["an unknown time zone", { timeZone: "Mars/Olympus_Mons" }],
      ["a very long time zone", { timeZone: "x".repeat(10_000) }],
      ["a NUL in the language", { locale: "ko\u0000" }],
      ["a NUL in the time zone", { timeZone: "Asia/Seoul\u0000" }],
      ["a lone surrogate in the language", { locale: "\ud800" }],
      ["a lone surrogate in the time zone", { timeZone: "Asia/\ud800" }],
      ["nothing to change", {}],
      ["an unknown field", { locale: "en", theme: "dark" }],
      ["a list", [{ locale: "en" }]],
    ];
    for (const [what, body] of refusals) {
      const answer = await api("PATCH", "/api/profile", { cookie, body });
      expect(answer, what).toMatchObject({
        status: 400,
        body: { ok: false, error: { code: "invalid_input", message: expect.any(String) } },
      });
    }
    expect(await api("PATCH", "/api/profile", { body: { locale: "en" } })).toMatchObject({
      status: 401,
      body: { error: { code: "unauthenticated" } },
    });
    expect(await api("PATCH", "/api/profile", { cookie, body: { locale: "en" }, origin: "https://evil.example" })).toMatchObject({
      status: 403,
      body: { error: { code: "cross_site" } },
    });
    expect(await api("GET", "/api/profile?locale=en", { cookie })).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_input" } },
    });
    const byAction = await callServerAction(server, "setLanguagePreference", [{ locale: "en", timeZone: "Asia/\ud800" }], { cookie });
    expect(byAction.result).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(await languagePreferenceOf(accounts.reviewer.id, database.url)).toEqual({ locale: "ko", timeZone: "Asia/Seoul" });
  });
});
