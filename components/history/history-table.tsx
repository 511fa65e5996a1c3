import { useFormatter, useTranslations } from "next-intl";
import Link from "next/link";
import { useTimestamp } from "@/components/time";
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { AccessDetails } from "@/components/history/access-details";
import type { AuditEventDto, HistoryEntryDto } from "@/lib/audit/dto";

const outcomeVariant: Record<string, BadgeVariant> = {
  applied: "default",
  recorded: "secondary",
  approved: "blue",
  recovered: "blue",
  released: "amber",
  interrupted: "amber",
  failed: "amber",
  refused: "outline",
  conflict: "outline",
  "decided-outside": "amber",
  expired: "red",
};

/** An outcome or action in the reader's words; a code the catalog does not know, as it is. */
function useCodeLabel(group: "outcomes" | "actions"): (code: string) => string {
  const t = useTranslations(`history.${group}`);
  return (code) => (t.has(code as never) ? t(code as never) : code);
}

/**
 * One row per decision, its states as a timeline, and one per refused attempt or conflict.
 * Everything shown is text: reasons, answers and arguments come from people and models.
 */
export function HistoryTable({ entries }: { entries: HistoryEntryDto[] }) {
  const t = useTranslations("history");
  if (entries.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 bg-white p-8 text-center text-sm text-neutral-600">{t("empty")}</p>
    );
  }
  return (
    <div className="rounded-lg border border-neutral-200 bg-white">
      <Table>
        <TableCaption>{t("caption")}</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>{t("columns.when")}</TableHead>
            <TableHead>{t("columns.reviewer")}</TableHead>
            <TableHead>{t("columns.action")}</TableHead>
            <TableHead>{t("columns.outcome")}</TableHead>
            <TableHead>{t("columns.toolCall")}</TableHead>
            <TableHead>{t("columns.resource")}</TableHead>
            <TableHead>{t("columns.details")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {entries.map((entry) => (
            <HistoryRow key={`${entry.kind}-${entry.head.id}`} entry={entry} />
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function HistoryRow({ entry }: { entry: HistoryEntryDto }) {
  const { head } = entry;
  const t = useTranslations("history");
  const action = useCodeLabel("actions");
  const timestamp = useTimestamp();
  return (
    <TableRow className="align-top" data-history-entry={entry.kind}>
      <TableCell className="whitespace-nowrap text-xs text-neutral-600">
        <time dateTime={head.at.toISOString()}>{timestamp(head.at.toISOString())}</time>
      </TableCell>
      {/* Whole, wrapped anywhere: an email address is the reviewer's identity. */}
      <TableCell className="min-w-[9rem] max-w-[16rem] text-sm [overflow-wrap:anywhere]">
        {head.reviewer}
        {head.assignee && head.assignee !== head.reviewer ? (
          // Others may decide an assigned call (unless its agent forbids it): the history says it was not theirs.
          <span className="block text-xs text-amber-800" data-testid="not-assignee">
            {t("notTheirs", { assignee: head.assignee })}
          </span>
        ) : null}
      </TableCell>
      <TableCell>
        {action(head.action)}
        {head.via === "slack" ? (
          <span className="block text-xs text-neutral-500" data-testid="via-slack">
            {t("viaSlack")}
          </span>
        ) : null}
        {head.tokenName ? (
          <span className="block text-xs text-neutral-500 [overflow-wrap:anywhere]" data-testid="via-token">
            {t("viaToken", { name: head.tokenName })}
          </span>
        ) : null}
        {head.batchId ? <BatchLink batchId={head.batchId} /> : null}
      </TableCell>
      <TableCell className="min-w-[11rem]">
        {entry.kind === "decision" ? (
          <Timeline entry={entry} />
        ) : entry.kind === "access" ? (
          // Recorded like a decision, but not one: the badge says which it is.
          <Badge variant="blue" data-testid="access-change">
            {t("accessChange")}
          </Badge>
        ) : (
          <OutcomeBadge event={head} />
        )}
      </TableCell>
      <TableCell className="min-w-[10rem] text-xs">
        <div className="font-mono [overflow-wrap:anywhere]">{entry.toolName ?? "—"}</div>
        {/* An access change (a token revoked, a service account disabled) concerns no run, and so no agent. */}
        {entry.agentId || head.runId ? (
          <div className="text-neutral-500 [overflow-wrap:anywhere]">{entry.agentId ?? t("agentNotRecorded")}</div>
        ) : null}
        {head.runId ? (
          <Link href={`/runs/${encodeURIComponent(head.runId)}`} className="font-mono text-neutral-500 underline-offset-2 hover:underline">
            {head.runId.slice(0, 8)}…
          </Link>
        ) : null}
      </TableCell>
      <TableCell className="font-mono text-xs [overflow-wrap:anywhere]">{head.resourceId ?? "—"}</TableCell>
      <TableCell className="max-w-md text-xs text-neutral-700">
        {entry.access ? <AccessDetails subject={entry.access} /> : <Details entry={entry} />}
      </TableCell>
    </TableRow>
  );
}

function OutcomeBadge({ event }: { event: AuditEventDto }) {
  const outcome = useCodeLabel("outcomes");
  return (
    <>
      <Badge variant={outcomeVariant[event.outcome] ?? "outline"}>{outcome(event.outcome)}</Badge>
      {event.code ? <span className="ml-1 font-mono text-xs text-neutral-500">{event.code}</span> : null}
    </>
  );
}

/** recorded → applying → applied (or failed, released, interrupted, recovered), each with its time. */
function Timeline({ entry }: { entry: HistoryEntryDto }) {
  const t = useTranslations("history");
  const format = useFormatter();
  const day = (at: Date) => format.dateTime(at, { dateStyle: "medium" });
  return (
    <ol aria-label={t("timeline")} className="flex flex-col gap-1">
      {entry.timeline.map((event) => (
        <li key={event.id} className="flex flex-wrap items-center gap-x-1.5 text-xs">
          <OutcomeBadge event={event} />
          <time dateTime={event.at.toISOString()} className="text-neutral-500">
            {format.dateTime(event.at, { hour: "2-digit", minute: "2-digit", second: "2-digit" })}
            {day(event.at) !== day(entry.head.at) ? ` (${day(event.at)})` : ""}
          </time>
          {event.reviewer !== entry.head.reviewer ? (
            <span className="text-neutral-500 [overflow-wrap:anywhere]">{t("by", { reviewer: event.reviewer })}</span>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

function Details({ entry }: { entry: HistoryEntryDto }) {
  const { head } = entry;
  const t = useTranslations("history");
  const outcome = useCodeLabel("outcomes");
  const answer = entry.timeline.findLast((event) => event.answer)?.answer ?? null;
  const lines: Array<[string, string | null]> = [
    [t("reason"), head.reason],
    [t("resumeData"), head.resumeData],
    [t("answer"), answer],
    // Each step's note, named by its state when the row has several.
    ...entry.timeline.map((event): [string, string | null] => [
      entry.timeline.length > 1 ? t("noteOf", { outcome: outcome(event.outcome) }) : t("note"),
      event.message,
    ]),
  ];
  const shown = lines.filter((line): line is [string, string] => !!line[1]);
  if (shown.length === 0) return <span className="text-neutral-400">—</span>;
  return (
    <dl className="space-y-1">
      {shown.map(([label, text], index) => (
        <div key={index}>
          <dt className="inline font-medium text-neutral-500">{label}: </dt>
          <dd className="inline [overflow-wrap:anywhere]">{text.length > 400 ? `${text.slice(0, 400)}…` : text}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A decision made in bulk: its batch, short, linking to every entry of that bulk request. */
function BatchLink({ batchId }: { batchId: string }) {
  const t = useTranslations("history");
  return (
    <Link
      href={`/history?batch=${encodeURIComponent(batchId)}`}
      title={t("bulkTitle", { batch: batchId })}
      className="mt-1 block w-fit rounded border border-neutral-300 px-1 font-mono text-[11px] text-neutral-600 hover:bg-neutral-100"
    >
      {t("bulk", { batch: batchId.slice(0, 8) })}
    </Link>
  );
}
