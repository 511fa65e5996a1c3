// next-intl checks every message key and locale against the English catalog at compile time.
import type en from "./messages/en.json";
import type { Locale } from "./lib/i18n/locales.ts";

declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
  }
}
