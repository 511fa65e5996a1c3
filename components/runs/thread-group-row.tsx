import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ThreadDto } from "@/lib/queue/dto";
import { WaitingTime } from "@/components/relative-time";
import { AssigneeControl } from "@/components/assignments/assignee-control";
import { summarizeThread, type PendingCallRow } from "./runs-table-model";
import { SelectCheckbox } from "./select-checkbox";
import { Spaced } from "@/components/ui/spaced";

interface ThreadGroupRowProps {
  thread: ThreadDto;
  calls: PendingCallRow[];
  expanded: boolean;
  onToggle: () => void;
  colSpan: number;
  /** How many of the thread's selectable calls are selected; undefined when the role cannot decide. */
  selection?: "all" | "some" | "none" | null;
  onSelect?: (checked: boolean) => void;
}

/** The header row of one thread: what it is, who it is for, and how long its oldest call waits. */
export function ThreadGroupRow({ thread, calls, expanded, onToggle, colSpan, selection, onSelect }: ThreadGroupRowProps) {
  const t = useTranslations("queue");
  const summary = summarizeThread(thread, calls);
  const threadLabel = summary.threadId ?? t("noThread");
  // Runs of agents used without memory have no thread: one group, named in words, not a marker.
  const groupName = summary.threadId ? t("thread.named", { thread: summary.threadId }) : t("thread.none");
  return (
    <tr className="border-b border-neutral-200 bg-neutral-50/70 max-md:block">
      <th scope="rowgroup" colSpan={colSpan} className="px-2 py-1.5 text-left font-normal max-md:block">
        <div className="flex flex-wrap items-center gap-x-5 gap-y-1 max-md:gap-x-3">
          <Spaced>
            {selection !== undefined ? (
              <span className="-mr-4 pl-1 max-md:hidden">
                <SelectCheckbox
                  state={selection}
                  label={t("thread.selectShown", { group: groupName })}
                  title={selection === null ? t("thread.noBulk") : undefined}
                  onChange={(checked) => onSelect?.(checked)}
                />
              </span>
            ) : null}
            <button
              type="button"
              onClick={onToggle}
              aria-expanded={expanded}
              aria-label={t(expanded ? "thread.collapse" : "thread.expand", { group: groupName })}
              className={`inline-flex min-w-0 items-center gap-1.5 rounded-md px-1.5 py-1 max-md:min-h-11 [overflow-wrap:anywhere] ${summary.threadId ? "font-mono" : ""} text-[13px] font-semibold text-neutral-900 hover:bg-neutral-200/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950`}
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 16 16"
                className={`h-3.5 w-3.5 text-neutral-500 transition-transform ${expanded ? "rotate-90" : ""}`}
              >
                <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
              {threadLabel}
            </button>
            <Meta label={t("thread.resource")}>
              <span className="font-mono">{summary.resourceIds.join(", ") || "—"}</span>
            </Meta>
            <Meta label={t("thread.agents", { count: summary.agentNames.length })}>{summary.agentNames.join(", ")}</Meta>
            <span className="rounded-full bg-neutral-200/70 px-2 py-0.5 text-xs font-medium tabular-nums text-neutral-700">
              {t("thread.pending", { count: summary.count })}
            </span>
            {summary.overdue > 0 ? (
              <span
                className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium tabular-nums text-red-800"
                data-testid="thread-overdue"
              >
                {summary.overdue === summary.count ? t("thread.allOverdue") : t("thread.overdue", { count: summary.overdue })}
              </span>
            ) : null}
            <Meta label={t("thread.oldestWait")}>
              <WaitingTime iso={summary.oldestSuspendedAt} className="tabular-nums" />
            </Meta>
            {summary.threadId ? (
              <AssigneeControl
                target={{ kind: "thread", threadId: summary.threadId }}
                assignee={thread.assignee}
                targetLabel={t("thread.named", { thread: summary.threadId })}
              />
            ) : null}
            {summary.shown < summary.count ? (
              <Link
                href={summary.threadId ? `/?threadId=${encodeURIComponent(summary.threadId)}` : "/?noThread=1"}
                className="text-xs font-medium text-neutral-900 underline underline-offset-4"
              >
                {t("thread.showAll", { count: summary.count })}
              </Link>
            ) : null}
          </Spaced>
        </div>
      </th>
    </tr>
  );
}

function Meta({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <span className="text-xs text-neutral-500">
      {label} <span className="text-[13px] text-neutral-800">{children}</span>
    </span>
  );
}
