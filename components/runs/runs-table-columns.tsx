import Link from "next/link";
import { useTranslations } from "next-intl";
import { createColumnHelper } from "@tanstack/react-table";
import { useNow, WaitingTime } from "@/components/relative-time";
import { useTimestamp, useWait } from "@/components/time";
import { DelegationPath } from "./delegation-path";
import { ShapeBadge } from "./shape-badge";
import { KindBadge } from "./kind-badge";
import { ApprovalsBadge, BeingDecidedBadge, ExpiredBadge, MayHaveRunBadge } from "./decision-badges";
import { OpenByBadge } from "./presence";
import { AssigneeNote } from "@/components/assignments/assignee-note";
import { RiskBadge } from "./risk-badge";
import { Spaced } from "@/components/ui/spaced";
import { isOverdue, targetMinutesOf, type PendingCallRow, type ReviewTargets, type RunsTableFeatures } from "./runs-table-model";

const column = createColumnHelper<RunsTableFeatures, PendingCallRow>();

/** Column ids the table groups by and never shows as a column. */
export const GROUPING_COLUMNS = new Set(["thread"]);

/** `requestLabel`: what a screen reader hears before a row's request excerpt (one translation for every row). */
export function getRunsTableColumns(targets: ReviewTargets, requestLabel: string) {
  return column.columns([
    column.accessor("threadKey", {
      id: "thread",
      header: () => <ColumnHeader column="thread" />,
      enableGrouping: true,
    }),
    column.accessor("toolName", {
      id: "tool",
      header: () => <ColumnHeader column="tool" />,
      cell: (info) => (
        <span className="flex min-w-0 flex-col items-start gap-0.5">
          <Spaced>
            <Link
              href={`/runs/${encodeURIComponent(info.row.original.runId)}`}
              className="rounded-sm font-mono text-[13px] font-medium text-neutral-900 underline decoration-neutral-300 underline-offset-4 hover:decoration-neutral-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950 focus-visible:ring-offset-2"
            >
              {info.getValue()}
            </Link>
            {info.row.original.requestExcerpt ? <RequestExcerpt text={info.row.original.requestExcerpt} label={requestLabel} /> : null}
            {info.row.original.assignee ? <AssigneeNote assignee={info.row.original.assignee} /> : null}
          </Spaced>
        </span>
      ),
    }),
    column.accessor("requiresApproval", {
      id: "kind",
      header: () => <ColumnHeader column="kind" />,
      cell: (info) => (
        <span className="inline-flex max-w-full flex-wrap items-center gap-1.5">
          <Spaced>
            <KindBadge requiresApproval={info.getValue()} />
            {info.row.original.interrupted ? <MayHaveRunBadge interrupted={info.row.original.interrupted} /> : null}
            {info.row.original.inFlight ? <BeingDecidedBadge inFlight={info.row.original.inFlight} /> : null}
            <OpenByBadge runId={info.row.original.runId} toolCallId={info.row.original.toolCallId} />
            {info.row.original.approvals ? <ApprovalsBadge approvals={info.row.original.approvals} /> : null}
            {info.row.original.markedExpired ? <ExpiredBadge expiry={info.row.original.markedExpired} /> : null}
          </Spaced>
        </span>
      ),
    }),
    column.accessor("risk", {
      id: "risk",
      header: () => <ColumnHeader column="risk" />,
      cell: (info) => <RiskBadge risk={info.getValue()} targetMinutes={targetMinutesOf(info.getValue(), targets)} />,
    }),
    column.accessor("agentName", {
      id: "agent",
      header: () => <ColumnHeader column="agent" />,
      cell: (info) => (
        <span className="flex flex-col gap-0.5">
          <span className="inline-flex flex-wrap items-center gap-1.5 text-neutral-700">
            <Spaced>
              {info.getValue()}
              <ShapeBadge shape={info.row.original.shape} delegated={Boolean(info.row.original.path)} />
            </Spaced>
          </span>
          {info.row.original.path ? <DelegationPath path={info.row.original.path} /> : null}
        </span>
      ),
    }),
    column.accessor("suspendedAt", {
      id: "waiting",
      header: () => <ColumnHeader column="waiting" />,
      cell: (info) => (
        <CallWait
          suspendedAt={info.getValue()}
          slaMinutes={targetMinutesOf(info.row.original.risk, targets)}
          expiresAt={info.row.original.expiresAt}
        />
      ),
    }),
    column.accessor("runId", {
      id: "run",
      header: () => <ColumnHeader column="run" />,
      cell: (info) => (
        <span className="font-mono text-xs text-neutral-600" title={info.getValue()}>
          {info.getValue().slice(0, 8)}
        </span>
      ),
    }),
  ]);
}

/** A column's name, in the reader's language. */
function ColumnHeader({ column }: { column: "thread" | "tool" | "kind" | "risk" | "agent" | "waiting" | "run" }) {
  const t = useTranslations("queue.columns");
  return t(column);
}

/** How long the call waits, whether it is past the review target (in words as well as colour), and when it expires. */
function CallWait({ suspendedAt, slaMinutes, expiresAt }: { suspendedAt: string; slaMinutes: number; expiresAt?: string }) {
  const t = useTranslations("queue.wait");
  const timestamp = useTimestamp();
  const wait = useWait();
  const now = useNow();
  const overdue = isOverdue(suspendedAt, slaMinutes, now);
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Spaced>
        <WaitingTime iso={suspendedAt} className={overdue ? "tabular-nums font-medium text-red-800" : "tabular-nums text-neutral-700"} />
        {overdue ? (
          <span
            className="rounded-full bg-red-100 px-1.5 py-0.5 text-[11px] font-medium text-red-800"
            title={t("overdueTitle", { minutes: slaMinutes })}
          >
            {t("overdue")}
          </span>
        ) : null}
        {expiresAt ? (
          <span
            className="rounded-full bg-amber-100 px-1.5 py-0.5 text-[11px] font-medium text-amber-900"
            title={t("expiresTitle", { time: timestamp(expiresAt) })}
            suppressHydrationWarning
          >
            {Date.parse(expiresAt) > now
              ? t("expiresIn", { wait: wait(new Date(now).toISOString(), Date.parse(expiresAt)) })
              : t("expiringNow")}
          </span>
        ) : null}
      </Spaced>
    </span>
  );
}

/**
 * What the agent was asked, one line: text only, cut by the store and again by the cell's width.
 * The label comes translated from the table: a translator per row cost the first page ~8 ms.
 */
function RequestExcerpt({ text, label }: { text: string; label: string }) {
  return (
    <span data-request-excerpt="" className="block w-full truncate text-xs text-neutral-600">
      <span className="sr-only">{label} </span>“{text}”
    </span>
  );
}
