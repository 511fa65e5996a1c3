/** Types of negotiate.mjs (plain JavaScript so server.mjs can import it). */
type Locale = "en" | "ko" | "zh-TW";
export declare function localeOfTag(tag: string): Locale | null;
export declare function negotiateLocale(acceptLanguage: string | null | undefined): Locale | null;
