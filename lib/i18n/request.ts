/** next-intl's request configuration (named in next.config.mjs): one language per request, no locale in the URL. */
import { getRequestConfig } from "next-intl/server";
import { CATALOGS } from "./catalogs.ts";
import { messageCacheFor } from "./message-cache.ts";
import { requestLanguage } from "./request-language.ts";

export default getRequestConfig(async () => {
  const { locale, timeZone } = await requestLanguage();
  // `_cache` (use-intl's own option, which next-intl passes on to its translators): parsed messages
  // shared by all requests in this language and zone instead of parsed again for each (message-cache.ts).
  const shared = { _cache: messageCacheFor(locale, timeZone) };
  return { locale, timeZone, messages: CATALOGS[locale], ...shared };
});
