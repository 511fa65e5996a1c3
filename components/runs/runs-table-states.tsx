import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

export function RunsEmptyState({ filtered, onReset }: { filtered: boolean; onReset: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
      <p className="text-sm font-medium text-neutral-900">
        {filtered ? "No pending tool calls match these filters" : "Nothing waits for a reviewer"}
      </p>
      <p className="max-w-sm text-sm text-neutral-500">
        {filtered
          ? "Try another resource, thread, agent or date range."
          : "When an agent stops for an approval or asks for input, it shows up here within a few seconds."}
      </p>
      {filtered ? (
        <Button variant="outline" size="sm" onClick={onReset}>
          Clear all filters
        </Button>
      ) : null}
    </div>
  );
}

export function RunsErrorState({ message, retrying, onRetry }: { message: string; retrying: boolean; onRetry: () => void }) {
  return (
    <Alert variant="destructive" role="alert" title="The pending runs could not be loaded">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <span>{message}</span>
        <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
          {retrying ? "Retrying…" : "Retry"}
        </Button>
      </div>
    </Alert>
  );
}
