import { useTranslations } from "next-intl";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

export default function NotFound() {
  const t = useTranslations();
  return (
    <div className="mx-auto mt-8 flex max-w-xl flex-col items-start gap-3">
      <h1 className="text-xl font-semibold tracking-tight">{t("pages.notFoundTitle")}</h1>
      <p className="text-sm text-neutral-600">{t("pages.notFoundBody")}</p>
      <Link href="/" className={buttonClasses({ size: "sm" })}>
        {t("nav.pending")}
      </Link>
    </div>
  );
}
