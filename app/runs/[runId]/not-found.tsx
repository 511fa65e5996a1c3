import { useTranslations } from "next-intl";
import Link from "next/link";
import { Card } from "@/components/ui/card";
import { buttonClasses } from "@/components/ui/button";

/** A run id the console has never seen waiting or decided: 404. */
export default function RunNotFound() {
  const t = useTranslations();
  return (
    <Card className="mx-auto mt-8 flex max-w-xl flex-col items-start gap-3 px-6 py-8">
      <h1 className="text-xl font-semibold tracking-tight">{t("pages.runNotFoundTitle")}</h1>
      <p className="text-sm text-neutral-600">{t("pages.runNotFoundBody")}</p>
      <Link href="/" className={buttonClasses({ variant: "default", size: "sm", className: "mt-2" })}>
        {t("common.backToPending")}
      </Link>
    </Card>
  );
}
