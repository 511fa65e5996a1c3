import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";

/**
 * Admins: oversight evidence for a period (GET /api/admin/evidence, docs/evidence.md), a plain GET
 * form so the browser downloads the streamed bundle itself. From/To default to the last 30 days.
 */
export function EvidenceExport({ from, to }: { from: string; to: string }) {
  const t = useTranslations("history.evidence");
  return (
    <details className="rounded-lg border border-neutral-200 bg-white p-4" data-testid="evidence-export">
      <summary className="cursor-pointer text-sm font-medium">{t("summary")}</summary>
      <p className="mt-2 text-sm text-neutral-600">{t("intro")}</p>
      <form method="get" action="/api/admin/evidence" className="mt-3 flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <Label htmlFor="evidence-from">{t("from")}</Label>
          <Input id="evidence-from" name="from" type="date" defaultValue={from} required />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="evidence-to">{t("to")}</Label>
          <Input id="evidence-to" name="to" type="date" defaultValue={to} required />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="evidence-format">{t("format")}</Label>
          <Select id="evidence-format" name="format" defaultValue="json">
            <option value="json">{t("json")}</option>
            <option value="csv">{t("csv")}</option>
          </Select>
        </div>
        <Button type="submit" variant="outline">
          {t("download")}
        </Button>
      </form>
    </details>
  );
}
