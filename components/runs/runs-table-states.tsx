import { useTranslations } from "next-intl";
import { useErrorText } from "@/components/error-text";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RunsViewError } from "./use-runs-view";

export function RunsEmptyState({ filtered, onReset }: { filtered: boolean; onReset: () => void }) {
  const t = useTranslations("queue.empty");
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
      <p className="text-sm font-medium text-neutral-900">{filtered ? t("filteredTitle") : t("title")}</p>
      <p className="max-w-sm text-sm text-neutral-500">{filtered ? t("filteredBody") : t("body")}</p>
      {filtered ? (
        <Button variant="outline" size="sm" onClick={onReset}>
          {t("clear")}
        </Button>
      ) : null}
    </div>
  );
}

/** Why the list could not be read, in the reader's words: the server's error, or that it could not be reached. */
export function RunsErrorState({ error, retrying, onRetry }: { error: Error; retrying: boolean; onRetry: () => void }) {
  const t = useTranslations("queue.error");
  const queue = useTranslations("queue");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const message = error instanceof RunsViewError && error.error.code !== "network" ? errorText(error.error) : queue("listUnreachable");
  return (
    <Alert variant="destructive" role="alert" title={t("title")}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <span>{message}</span>
        <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
          {retrying ? t("retrying") : common("retry")}
        </Button>
      </div>
    </Alert>
  );
}
