/** next-intl's request configuration (named in next.config.mjs): one language per request, no locale in the URL. */
import { getRequestConfig } from "next-intl/server";
import { CATALOGS } from "./catalogs.ts";
import { requestLanguage } from "./request-language.ts";

export default getRequestConfig(async () => {
  const { locale, timeZone } = await requestLanguage();
  return { locale, timeZone, messages: CATALOGS[locale] };
});
