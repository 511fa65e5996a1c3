import { LOCALE_NAMES, LOCALES } from "@/lib/i18n/locales";

/** The console's languages as a select's options, each named in itself (the webhook forms). */
export function LocaleOptions() {
  return LOCALES.map((code) => (
    <option key={code} value={code}>
      {LOCALE_NAMES[code]}
    </option>
  ));
}
