"use client";

import type { DryRunResult } from "@/lib/rules/dto";
import { Button } from "@/components/ui/button";

/** "Would approve 37 of 58 waiting calls", the counts by effect, and a page of the matching calls. */
export function DryRunSummary({ result, word, onPage }: { result: DryRunResult; word: string; onPage: (page: number) => void }) {
  const acting = result.counts.approve + result.counts.decline + result.counts.require_approvals + result.counts.ask;
  const main = word === "approve" ? result.counts.approve : word === "decline" ? result.counts.decline : acting;
  const pages = Math.max(1, Math.ceil(result.matched / result.pageSize));
  return (
    <div data-testid="dry-run" className="rounded-md border border-neutral-200 bg-neutral-50 p-3 text-sm">
      <p className="font-medium">
        Would {word} {main} of {result.waiting} waiting calls.
      </p>
      <p className="text-neutral-600">
        Matches {result.matched}: approve {result.counts.approve}, decline {result.counts.decline}, require approvals{" "}
        {result.counts.require_approvals}, ask a person {result.counts.ask}.
      </p>
      {result.calls.length > 0 ? (
        <ul className="mt-2 flex flex-col gap-1" aria-label="Calls the rule matches">
          {result.calls.map((call) => (
            <li key={`${call.runId}/${call.toolCallId}`} className="font-mono text-xs break-all">
              {call.effect} · {call.agentId} · {call.toolName ?? "?"} · {call.resourceId ?? "no resource"} · {call.args}
            </li>
          ))}
        </ul>
      ) : null}
      {pages > 1 ? (
        <div className="mt-2 flex items-center gap-2">
          <Button type="button" size="xs" variant="outline" disabled={result.page <= 1} onClick={() => onPage(result.page - 1)}>
            Previous
          </Button>
          <span>
            Page {result.page} of {pages}
          </span>
          <Button type="button" size="xs" variant="outline" disabled={result.page >= pages} onClick={() => onPage(result.page + 1)}>
            Next
          </Button>
        </div>
      ) : null}
    </div>
  );
}
