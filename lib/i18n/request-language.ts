/**
 * The language and time zone of the request being rendered: the signed-in user's choice on
 * /profile, else what the browser says (Accept-Language; the zone its script put in a cookie),
 * else English and UTC. The URL never carries a locale: every route stays as it was.
 */
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { currentActor } from "../auth/session.ts";
import { DEFAULT_LOCALE, negotiateLocale, type Locale } from "./locales.ts";
import { languagePreferenceOf, storedLanguagePreference, type LanguagePreference } from "./preferences.ts";
import { BROWSER_TIME_ZONE_COOKIE, DEFAULT_TIME_ZONE, isTimeZone } from "./time-zones.ts";

export interface RequestLanguage {
  locale: Locale;
  timeZone: string;
  /** What the user chose on /profile (nulls when signed out or never chosen). */
  chosen: LanguagePreference;
  /** What the browser alone gives: Accept-Language negotiated, else English; its zone cookie, else UTC. */
  browser: { locale: Locale; timeZone: string };
}

export const requestLanguage = cache(async (): Promise<RequestLanguage> => {
  const actor = await currentActor();
  const chosen: LanguagePreference = actor
    ? actor.storedLanguage
      ? storedLanguagePreference(actor.storedLanguage)
      : await languagePreferenceOf(actor.id)
    : { locale: null, timeZone: null };
  let browserLocale: Locale | null = null;
  let browserZone: string | null = null;
  try {
    browserLocale = negotiateLocale((await headers()).get("accept-language"));
    const cookie = (await cookies()).get(BROWSER_TIME_ZONE_COOKIE)?.value;
    browserZone = isTimeZone(cookie) ? cookie : null;
  } catch {
    // outside a request (a script under runAs): no browser to ask
  }
  return {
    locale: chosen.locale ?? browserLocale ?? DEFAULT_LOCALE,
    timeZone: chosen.timeZone ?? browserZone ?? DEFAULT_TIME_ZONE,
    chosen,
    browser: { locale: browserLocale ?? DEFAULT_LOCALE, timeZone: browserZone ?? DEFAULT_TIME_ZONE },
  };
});
