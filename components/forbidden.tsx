import { useTranslations } from "next-intl";
import Link from "next/link";
import type { Role } from "@/lib/auth/roles";
import { Card } from "@/components/ui/card";

/** The page a role may not open (the server refused it: lib/auth/page-access.ts). */
export function Forbidden({ role }: { role: Role | null }) {
  const t = useTranslations();
  return (
    <Card className="mx-auto mt-8 flex max-w-xl flex-col items-start gap-3 px-6 py-8">
      <h1 className="text-xl font-semibold tracking-tight">{t("pages.forbiddenTitle")}</h1>
      <p className="text-sm text-neutral-600">
        {t("pages.roleMayNot", { role: t(`roles.${role ?? "none"}`) })} {t("pages.forbiddenAsk")}
      </p>
      <Link href="/" className="text-sm font-medium underline underline-offset-4">
        {t("common.backToPending")}
      </Link>
    </Card>
  );
}
