/**
 * How a language and a time zone are chosen: Accept-Language negotiated against en, ko and zh-TW;
 * the user's own choice on /profile saved on both databases, validated on the server.
 */
import { describe, expect, it } from "vitest";
import { setLanguagePreferenceOperation } from "../../lib/actions/user-operations.ts";
import { runOperation } from "../../lib/actions/operation.ts";
import { getAuth } from "../../lib/auth/auth.ts";
import { translatorFor } from "../../lib/i18n/catalogs.ts";
import { negotiateLocale } from "../../lib/i18n/locales.ts";
import { languagePreferenceOf, languagePreferencesOf } from "../../lib/i18n/preferences.ts";
import { isTimeZone } from "../../lib/i18n/time-zones.ts";
import { alreadyDecidedText, declineModal } from "../../lib/slack/blocks.ts";
import { actorOf, createTestAccount, sessionCookie } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";

describe("Accept-Language", () => {
  it.each([
    ["ko-KR,ko;q=0.9,en-US;q=0.8", "ko"],
    ["en-GB,en;q=0.9", "en"],
    ["zh-TW,zh;q=0.9", "zh-TW"],
    ["zh", "zh-TW"],
    ["zh-Hant", "zh-TW"],
    ["zh-Hant-HK", "zh-TW"],
    ["zh-HK", "zh-TW"],
    ["zh_tw", "zh-TW"],
    // Simplified Chinese has no catalog: the next preference wins, else nothing.
    ["zh-CN,en;q=0.5", "en"],
    ["zh-Hans", null],
    // Quality values order the list, whatever their position; q=0 means "not this".
    ["en;q=0.2, ko;q=0.8", "ko"],
    ["ko;q=0, en;q=0.1", "en"],
    ["fr-FR,de;q=0.9", null],
    ["*", null],
    ["", null],
  ])("%j → %s", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});

describe("time zones", () => {
  it("accepts IANA names and UTC, nothing else", () => {
    for (const zone of ["UTC", "Asia/Seoul", "Asia/Taipei", "America/New_York"]) expect(isTimeZone(zone), zone).toBe(true);
    for (const zone of ["", "utc+9", "Mars/Olympus_Mons", "Asia/Seoul; drop table", 42, null])
      expect(isTimeZone(zone), String(zone)).toBe(false);
  });
});

describe("translatorFor (emails, Slack)", () => {
  it("formats in the reader's language and zone, English and UTC by default", () => {
    const moment = new Date("2026-12-04T01:02:03Z");
    const korean = translatorFor("ko", "Asia/Seoul");
    expect(korean.t("signIn.title")).toBe("로그인");
    expect(korean.format.dateTime(moment, { hour: "numeric", minute: "2-digit", hour12: false })).toBe("10:02");
    const none = translatorFor(null);
    expect(none.t("signIn.title")).toBe("Sign in");
    expect(none.format.dateTime(moment, { hour: "numeric", minute: "2-digit", hour12: false })).toBe("01:02");
  });
});

describe.each(["sqlite", "postgres"] as const)("the language preference on %s", { timeout: 120_000 }, (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  it("is the browser's until chosen, then saved on the user for every role", async () => {
    const reviewer = await createTestAccount(database.url, "reviewer");
    const support = await createTestAccount(database.url, "support");
    expect(await languagePreferenceOf(reviewer.id, database.url)).toEqual({ locale: null, timeZone: null });

    const saved = await runOperation(setLanguagePreferenceOperation, actorOf(reviewer), { locale: "ko", timeZone: "Asia/Seoul" });
    expect(saved).toEqual({ ok: true, data: { locale: "ko", timeZone: "Asia/Seoul" } });
    const alsoSupport = await runOperation(setLanguagePreferenceOperation, actorOf(support), { locale: "zh-TW", timeZone: "" });
    expect(alsoSupport).toEqual({ ok: true, data: { locale: "zh-TW", timeZone: null } });

    expect(await languagePreferenceOf(reviewer.id, database.url)).toEqual({ locale: "ko", timeZone: "Asia/Seoul" });
    const both = await languagePreferencesOf([reviewer.id, support.id, "nobody"], database.url);
    expect(both.get(support.id)).toEqual({ locale: "zh-TW", timeZone: null });
    expect(both.has("nobody")).toBe(false);

    // Sign-in still reads the user with the new columns, and the session carries the choice (a page reads no more).
    const { user } = await (await getAuth(database.url)).api.signInEmail({ body: { email: reviewer.email, password: reviewer.password } });
    expect(user.id).toBe(reviewer.id);
    const session = await (
      await getAuth(database.url)
    ).api.getSession({
      // This process is not in production: its cookie has no __Secure- prefix.
      headers: new Headers({ cookie: (await sessionCookie(database.url, reviewer)).replace(/^__Secure-/, "") }),
    });
    expect(session?.user).toMatchObject({ id: reviewer.id, locale: "ko", timeZone: "Asia/Seoul" });

    // Back to the browser's.
    await runOperation(setLanguagePreferenceOperation, actorOf(reviewer), { locale: "", timeZone: "" });
    expect(await languagePreferenceOf(reviewer.id, database.url)).toEqual({ locale: null, timeZone: null });
  });

  it("refuses anything but our languages and IANA zones, changing nothing", async () => {
    const reviewer = await createTestAccount(database.url, "reviewer");
    await runOperation(setLanguagePreferenceOperation, actorOf(reviewer), { locale: "ko", timeZone: "Asia/Seoul" });
    for (const input of [
      { locale: "fr", timeZone: "" },
      { locale: "zh-CN", timeZone: "" },
      { locale: "en", timeZone: "Mars/Olympus_Mons" },
      { locale: "en", timeZone: "x".repeat(10_000) },
      { locale: "en", timeZone: "UTC", extra: true },
      { locale: ["ko"], timeZone: "UTC" },
      {},
    ]) {
      const refused = await runOperation(setLanguagePreferenceOperation, actorOf(reviewer), input);
      expect(refused, JSON.stringify(input).slice(0, 80)).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    }
    expect(await languagePreferenceOf(reviewer.id, database.url)).toEqual({ locale: "ko", timeZone: "Asia/Seoul" });
  });
});

describe("Slack, in the clicker's language", () => {
  it("words the decline modal and a stale button's answer in Korean, English by default", () => {
    const korean = translatorFor("ko", "Asia/Seoul");
    const modal = declineModal("issueRefund", "{}", korean);
    expect(modal.title.text).toBe("호출 거절");
    expect(modal.blocks[0]!.label.text).toBe("issueRefund을(를) 거절하는 이유는 무엇인가요? 에이전트에게 전달됩니다.");
    expect(declineModal(null, "{}").blocks[0]!.label.text).toBe("Why decline this call? The agent is told.");
    const prior = { reviewer: "ray@example.com", action: "approve", decidedAt: "2026-12-04T01:02:03.000Z" };
    expect(alreadyDecidedText(prior)).toBe(
      "This call was already approved by ray@example.com at 2026-12-04T01:02:03.000Z. Nothing was changed.",
    );
    expect(alreadyDecidedText(prior, korean)).toMatch(
      /^이 호출은 이미 ray@example\.com 님이 2026\. 12\. 4\. 오전 10:02:03에 승인했습니다\./,
    );
  });
});
