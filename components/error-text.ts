"use client";

/**
 * The words for an error the server returned. Its code is stable English (the JSON API's contract);
 * its message is written for an English reader. In English the UI shows that message, which may
 * name specifics (who decided first, which field); in another language, the catalog's sentence for
 * the code.
 */
import { useLocale, useTranslations } from "next-intl";
import { useCallback } from "react";
import type { ClientErrorCode } from "@/lib/errors";

export function useErrorText(): (error: { code: ClientErrorCode; message: string }) => string {
  const locale = useLocale();
  const t = useTranslations("errors");
  return useCallback((error) => (locale === "en" && error.message ? error.message : t(error.code)), [locale, t]);
}
