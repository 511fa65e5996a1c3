"use client";

/** Language and time zone on /profile: each either chosen or "the browser's" (the empty value). */
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { setLanguagePreference } from "@/lib/actions/set-language-preference";
import { LOCALE_NAMES, LOCALES, type Locale } from "@/lib/i18n/locales";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { useErrorText } from "@/components/error-text";

export interface LanguageFormProps {
  /** The user's choices, null for "the browser's". */
  locale: Locale | null;
  timeZone: string | null;
  /** What the browser's own settings give (Accept-Language, its zone cookie), to name the empty choice. */
  browserLocale: Locale;
  browserZone: string;
  /** The server's list, so that server and browser render the same options. */
  zones: string[];
}

export function LanguageForm({ locale, timeZone, browserLocale, browserZone, zones }: LanguageFormProps) {
  const t = useTranslations();
  const errorText = useErrorText();
  const router = useRouter();
  const languageId = useId();
  const zoneId = useId();
  // "Saved" is rendered from its key, so it reads in the new language once the page is drawn again.
  const [message, setMessage] = useState<{ kind: "ok" } | { kind: "error"; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const result = await setLanguagePreference(Object.fromEntries(new FormData(event.currentTarget)));
    setPending(false);
    if (!result.ok) return setMessage({ kind: "error", text: errorText(result.error) });
    setMessage({ kind: "ok" });
    // The whole page, header included, is drawn again in the new language.
    router.refresh();
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <p className="text-sm text-neutral-600">{t("profile.languageHelp")}</p>
      <div className="flex flex-col gap-1">
        <Label htmlFor={languageId}>{t("profile.language")}</Label>
        <Select id={languageId} name="locale" defaultValue={locale ?? ""}>
          <option value="">{t("profile.languageBrowser", { language: LOCALE_NAMES[browserLocale] })}</option>
          {LOCALES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LOCALE_NAMES[code]}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={zoneId}>{t("profile.timeZone")}</Label>
        <Select id={zoneId} name="timeZone" defaultValue={timeZone ?? ""}>
          <option value="">{t("profile.timeZoneBrowser", { zone: browserZone })}</option>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </Select>
      </div>
      <div role="status" aria-live="polite">
        {message?.kind === "ok" ? <Alert variant="success">{t("profile.languageSaved")}</Alert> : null}
        {message?.kind === "error" ? <Alert variant="destructive">{message.text}</Alert> : null}
      </div>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? t("common.saving") : t("common.save")}
        </Button>
      </div>
    </form>
  );
}
