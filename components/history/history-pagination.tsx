import { useTranslations } from "next-intl";
import Link from "next/link";
import { cn } from "@/components/ui/cn";

export function HistoryPagination({ page, pageCount, params }: { page: number; pageCount: number; params: Record<string, string> }) {
  const t = useTranslations("history");
  const hrefFor = (target: number) => `/history?${new URLSearchParams({ ...params, page: String(target) })}`;
  const linkClass =
    "inline-flex h-8 items-center rounded-md border border-neutral-300 bg-white px-3 text-sm font-medium shadow-sm hover:bg-neutral-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950";
  return (
    <nav aria-label={t("pages")} className="flex items-center justify-end gap-3 text-sm">
      <span className="text-neutral-600">{t("page", { page, pageCount })}</span>
      {page > 1 ? (
        <Link href={hrefFor(page - 1)} className={linkClass}>
          {t("previous")}
        </Link>
      ) : (
        <span aria-disabled="true" className={cn(linkClass, "pointer-events-none opacity-50")}>
          {t("previous")}
        </span>
      )}
      {page < pageCount ? (
        <Link href={hrefFor(page + 1)} className={linkClass}>
          {t("next")}
        </Link>
      ) : (
        <span aria-disabled="true" className={cn(linkClass, "pointer-events-none opacity-50")}>
          {t("next")}
        </span>
      )}
    </nav>
  );
}
