"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";
import { PAGE_SIZES } from "@/lib/list-params";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";

interface RunsTablePaginationProps {
  page: number;
  pageCount: number;
  perPage: number;
  threadTotal: number;
  callTotal: number;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
}

export function RunsTablePagination({
  page,
  pageCount,
  perPage,
  threadTotal,
  callTotal,
  onPageChange,
  onPerPageChange,
}: RunsTablePaginationProps) {
  const t = useTranslations("queue.pagination");
  const perPageId = useId();
  return (
    <nav aria-label={t("label")} className="flex flex-wrap items-center justify-between gap-3 px-1 text-sm text-neutral-600">
      <p className="tabular-nums" data-testid="queue-totals">
        {t("totals", { calls: callTotal, threads: threadTotal })}
      </p>
      <div className="flex flex-wrap items-center gap-4">
        <div className="flex items-center gap-2">
          <label htmlFor={perPageId} className="text-sm font-medium text-neutral-700">
            {t("perPage")}
          </label>
          <Select
            id={perPageId}
            value={String(perPage)}
            onChange={(event) => onPerPageChange(Number(event.target.value))}
            className="h-8 w-[4.5rem]"
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </Select>
        </div>
        <p className="min-w-[6.5rem] text-center font-medium tabular-nums text-neutral-800">{t("page", { page, pageCount })}</p>
        <div className="flex items-center gap-1.5">
          <Button variant="outline" size="sm" onClick={() => onPageChange(page - 1)} disabled={page <= 1}>
            <span aria-hidden="true">‹</span> {t("previous")}
          </Button>
          <Button variant="outline" size="sm" onClick={() => onPageChange(page + 1)} disabled={page >= pageCount}>
            {t("next")} <span aria-hidden="true">›</span>
          </Button>
        </div>
      </div>
    </nav>
  );
}
