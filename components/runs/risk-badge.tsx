import { useTranslations } from "next-intl";
import { cn } from "@/components/ui/cn";
import type { Risk } from "@/lib/risk";

/** Each risk's colour (its word is queue.risk.<risk>); every pair keeps a contrast of at least 4.5:1 (axe checks, e2e/31). */
const STYLES: Record<Risk, string> = {
  critical: "border-red-800 bg-red-700 text-white",
  high: "border-orange-300 bg-orange-100 text-orange-900",
  medium: "border-yellow-300 bg-yellow-50 text-yellow-900",
  low: "border-emerald-200 bg-emerald-50 text-emerald-800",
};

/** A call's risk (the rule that matched it when it started waiting); a call no rule rated shows "Unrated". */
export function RiskBadge({ risk, targetMinutes }: { risk?: Risk; targetMinutes: number }) {
  const t = useTranslations("queue.risk");
  if (!risk) {
    return (
      <span className="text-xs text-neutral-600" title={t("unratedTitle", { minutes: targetMinutes })}>
        {t("unrated")}
      </span>
    );
  }
  const label = t(risk);
  return (
    <span
      data-risk={risk}
      title={t("title", { risk: label, minutes: targetMinutes })}
      className={cn("inline-flex items-center whitespace-nowrap rounded-md border px-2 py-0.5 text-xs font-medium", STYLES[risk])}
    >
      <span className="sr-only">{t("label")} </span>
      {label}
    </span>
  );
}
