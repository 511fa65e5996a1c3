/**
 * The console's languages and how a browser's Accept-Language picks one. Browser-safe and free of
 * dependencies: the profile form lists the choices from here, the server negotiates with it.
 */
export const LOCALES = ["en", "ko", "zh-TW"] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = "en";

/** Each language named in itself, as every language picker does: the same in every catalog. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", ko: "한국어", "zh-TW": "繁體中文" };

export const isLocale = (value: unknown): value is Locale => typeof value === "string" && (LOCALES as readonly string[]).includes(value);

// Plain JavaScript so server.mjs (its "busy" page) negotiates the same way as the pages do.
export { localeOfTag, negotiateLocale } from "./negotiate.mjs";
