/**
 * The message catalogs (messages/<locale>.json), loaded once, and a translator for work outside a
 * page (emails, Slack messages): the same ICU messages, in the recipient's language.
 */
import { createFormatter, createTranslator } from "use-intl/core";
import en from "../../messages/en.json" with { type: "json" };
import ko from "../../messages/ko.json" with { type: "json" };
import zhTW from "../../messages/zh-TW.json" with { type: "json" };
import { DEFAULT_LOCALE, type Locale } from "./locales.ts";
import { DEFAULT_TIME_ZONE } from "./time-zones.ts";

export type Messages = typeof en;

export const CATALOGS: Record<Locale, Messages> = { en, ko, "zh-TW": zhTW };

/** A translator and formatter for one reader: their language (else English) and time zone (else UTC). */
export function translatorFor(locale: Locale | null | undefined, timeZone?: string | null) {
  const chosen = locale ?? DEFAULT_LOCALE;
  const zone = timeZone ?? DEFAULT_TIME_ZONE;
  return {
    locale: chosen,
    t: createTranslator({ locale: chosen, messages: CATALOGS[chosen], timeZone: zone }),
    format: createFormatter({ locale: chosen, timeZone: zone }),
  };
}
