/**
 * How a language tag or a browser's Accept-Language picks one of the console's languages (en, ko,
 * zh-TW; lib/i18n/locales.ts lists them). Plain JavaScript with no imports, so server.mjs can answer
 * in the reader's language before Next runs; types: negotiate.d.mts.
 */

/**
 * The catalog for one language tag, or null. Chinese written in Traditional characters (zh-Hant,
 * Taiwan, Hong Kong, Macau) and a bare `zh` read the zh-TW catalog; Simplified Chinese (zh-CN,
 * zh-Hans, zh-SG) has no catalog of its own and falls through to the next preference.
 */
export function localeOfTag(tag) {
  const parts = tag.trim().toLowerCase().split(/[-_]/);
  const [language] = parts;
  if (language === "en") return "en";
  if (language === "ko") return "ko";
  if (language !== "zh") return null;
  const rest = parts.slice(1);
  if (rest.length === 0 || rest.includes("hant") || rest.some((part) => ["tw", "hk", "mo"].includes(part))) return "zh-TW";
  return null;
}

/** The best of our languages for an Accept-Language header (RFC 9110 quality values), else null. */
export function negotiateLocale(acceptLanguage) {
  if (!acceptLanguage) return null;
  const ranked = acceptLanguage
    .slice(0, 1_000)
    .split(",")
    .map((entry, index) => {
      const [tag = "", ...params] = entry.split(";");
      const q = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param)?.[1]).find((value) => value !== undefined);
      const quality = q === undefined ? 1 : Number(q);
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    const locale = localeOfTag(tag);
    if (locale) return locale;
  }
  return null;
}
