import Link from "next/link";
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { AuditEventDto } from "@/lib/audit/dto";

const outcomeVariant: Record<string, BadgeVariant> = {
  applied: "default",
  recorded: "secondary",
  recovered: "blue",
  released: "amber",
  interrupted: "amber",
  failed: "amber",
  refused: "outline",
  conflict: "outline",
};

/** Everything shown is text: reasons, answers and arguments come from people and models. */
export function HistoryTable({ events }: { events: AuditEventDto[] }) {
  if (events.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 bg-white p-8 text-center text-sm text-neutral-600">
        No history matches these filters.
      </p>
    );
  }
  return (
    <div className="rounded-lg border border-neutral-200 bg-white">
      <Table>
        <TableCaption>Decision history, newest first</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>When</TableHead>
            <TableHead>Reviewer</TableHead>
            <TableHead>Action</TableHead>
            <TableHead>Outcome</TableHead>
            <TableHead>Tool call</TableHead>
            <TableHead>Resource</TableHead>
            <TableHead>Details</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {events.map((event) => (
            <TableRow key={event.id} className="align-top">
              <TableCell className="whitespace-nowrap text-xs text-neutral-600">
                <time dateTime={event.at.toISOString()}>{event.at.toISOString().replace("T", " ").slice(0, 19)}</time>
              </TableCell>
              <TableCell className="max-w-[10rem] truncate" title={event.reviewer}>
                {event.reviewer}
              </TableCell>
              <TableCell>
                {event.action}
                {event.batchId ? <BatchLink batchId={event.batchId} /> : null}
              </TableCell>
              <TableCell>
                <Badge variant={outcomeVariant[event.outcome] ?? "outline"}>{event.outcome}</Badge>
                {event.code ? <span className="ml-1 font-mono text-xs text-neutral-500">{event.code}</span> : null}
              </TableCell>
              <TableCell className="text-xs">
                <div className="font-mono">{event.toolName ?? "—"}</div>
                <div className="text-neutral-500">{event.agentId ?? "unknown agent"}</div>
                {event.runId ? (
                  <Link
                    href={`/runs/${encodeURIComponent(event.runId)}`}
                    className="font-mono text-neutral-500 underline-offset-2 hover:underline"
                  >
                    {event.runId.slice(0, 8)}…
                  </Link>
                ) : null}
              </TableCell>
              <TableCell className="font-mono text-xs">{event.resourceId ?? "—"}</TableCell>
              <TableCell className="max-w-md text-xs text-neutral-700">
                <Details event={event} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function Details({ event }: { event: AuditEventDto }) {
  const lines: Array<[string, string | null]> = [
    ["Reason", event.reason],
    ["Resume data", event.resumeData],
    ["Answer", event.answer],
    ["Note", event.message],
  ];
  const shown = lines.filter((line): line is [string, string] => !!line[1]);
  if (shown.length === 0) return <span className="text-neutral-400">—</span>;
  return (
    <dl className="space-y-1">
      {shown.map(([label, text]) => (
        <div key={label}>
          <dt className="inline font-medium text-neutral-500">{label}: </dt>
          <dd className="inline break-words">{text.length > 400 ? `${text.slice(0, 400)}…` : text}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A decision made in bulk: its batch, short, linking to every entry of that bulk request. */
function BatchLink({ batchId }: { batchId: string }) {
  return (
    <Link
      href={`/history?batch=${encodeURIComponent(batchId)}`}
      title={`Bulk request ${batchId}: show all its calls`}
      className="mt-1 block w-fit rounded border border-neutral-300 px-1 font-mono text-[11px] text-neutral-600 hover:bg-neutral-100"
    >
      bulk {batchId.slice(0, 8)}
    </Link>
  );
}
