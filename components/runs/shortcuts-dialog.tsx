"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { QUEUE_SHORTCUTS } from "./use-queue-keyboard";

/** Every shortcut of the review queue. None fires while you type in a field. */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useTranslations("queue.shortcuts");
  const common = useTranslations("common");
  return (
    <Dialog open={open} onClose={onClose} title={t("title")} description={t("description")}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t("caption")}</caption>
        <thead className="text-xs uppercase tracking-wide text-neutral-500">
          <tr>
            <th scope="col" className="w-36 py-1 font-medium">
              {t("keys")}
            </th>
            <th scope="col" className="py-1 font-medium">
              {t("what")}
            </th>
          </tr>
        </thead>
        <tbody>
          {QUEUE_SHORTCUTS.map(({ keys, what }) => (
            <tr key={what} className="border-t border-neutral-100">
              <td className="py-1.5 pr-3 align-top">
                {keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 ? <span className="text-neutral-400"> {t("or")} </span> : null}
                    <kbd className="rounded border border-neutral-300 bg-neutral-50 px-1.5 py-0.5 font-mono text-xs">{key}</kbd>
                  </span>
                ))}
              </td>
              <td className="py-1.5 text-neutral-700">{t(what)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex justify-end">
        <Button onClick={onClose} autoFocus>
          {common("close")}
        </Button>
      </div>
    </Dialog>
  );
}
