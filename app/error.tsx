"use client";

import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations();
  return (
    <Alert variant="destructive" role="alert" title={t("pages.errorTitle")}>
      <p>{error.digest ? t("pages.errorBodyWithReference", { reference: error.digest }) : t("pages.errorBody")}</p>
      <Button variant="outline" size="sm" className="mt-3" onClick={reset}>
        {t("common.retry")}
      </Button>
    </Alert>
  );
}
