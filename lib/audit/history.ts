/**
 * The history page's rows: one per decision, with its states as a timeline, one per refused
 * attempt or conflict, and one per access change (`kind=access` shows only those, `decisions` none). A page counts rows, not events (the CSV export stays one line per event).
 *
 * A row is anchored on one event and paged with the same indexes as the events themselves:
 * without an outcome filter the anchors are the `recorded` events (one per decision; a take-over of
 * a released call records again and starts a new row), the refusals and the conflicts; with an
 * outcome filter, the events of that outcome, each shown with its decision. The decisions' other
 * events are then read for the page only, by run id (indexed).
 */
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import type { Prisma } from "../generated/sqlite/client.ts";
import type { AuditQuery } from "../search-params.ts";
import { accessSubjectOf, isAccessChange } from "./access-changes.ts";
import type { AuditEventDto, HistoryEntryDto } from "./dto.ts";
import { auditWhere, findEventPage } from "./queries.ts";

/** The states a decision goes through; every other outcome (refused, conflict) is an attempt. */
const DECISION_OUTCOMES = ["recorded", "applied", "expired", "failed", "released", "interrupted", "recovered"];

const isDecisionEvent = (event: AuditEventDto) => event.decisionId !== null && DECISION_OUTCOMES.includes(event.outcome);

export async function listHistory(
  query: AuditQuery,
  databaseUrl = databaseUrlFromEnv(),
): Promise<{ entries: HistoryEntryDto[]; total: number; page: number; perPage: number; pageCount: number }> {
  const db = await getDb(databaseUrl);
  const filtered = auditWhere(query);
  const where: Prisma.AuditEventWhereInput = query.outcome
    ? filtered
    : { ...filtered, OR: [{ outcome: { in: ["recorded", "refused", "conflict"] } }, { decisionId: null }] };
  const [anchors, total] = await findEventPage(db, where, query);

  const decided = anchors.filter(isDecisionEvent);
  const events = decided.length
    ? await db.auditEvent.findMany({
        where: {
          runId: { in: [...new Set(decided.map((event) => event.runId))] },
          decisionId: { in: [...new Set(decided.map((event) => event.decisionId!))] },
          outcome: { in: DECISION_OUTCOMES },
        },
        orderBy: { id: "asc" },
      })
    : [];
  const segments = segmentsOf(events);

  const seen = new Set<number>();
  const entries: HistoryEntryDto[] = [];
  for (const anchor of anchors) {
    if (isAccessChange(anchor.action) && !anchor.runId) {
      entries.push({
        kind: "access",
        head: anchor,
        timeline: [anchor],
        agentId: null,
        toolName: null,
        access: accessSubjectOf(anchor.args),
      });
      continue;
    }
    if (!isDecisionEvent(anchor)) {
      entries.push({ kind: "attempt", head: anchor, timeline: [anchor], agentId: anchor.agentId, toolName: anchor.toolName });
      continue;
    }
    const timeline = segmentOf(segments.get(anchor.decisionId!) ?? [], anchor);
    if (seen.has(timeline[0]!.id)) continue;
    seen.add(timeline[0]!.id);
    entries.push({ kind: "decision", head: timeline[0]!, timeline, agentId: timeline[0]!.agentId, toolName: timeline[0]!.toolName });
  }
  await fillKnownCalls(db, entries);
  return { entries, total, page: query.page, perPage: query.perPage, pageCount: Math.max(1, Math.ceil(total / query.perPage)) };
}

/** Each decision's events split where it was recorded (again): one segment per row. */
function segmentsOf(events: AuditEventDto[]): Map<string, AuditEventDto[][]> {
  const byDecision = new Map<string, AuditEventDto[][]>();
  for (const event of events) {
    const segments = byDecision.get(event.decisionId!) ?? [];
    if (segments.length === 0 || event.outcome === "recorded") segments.push([]);
    segments.at(-1)!.push(event);
    byDecision.set(event.decisionId!, segments);
  }
  return byDecision;
}

function segmentOf(segments: AuditEventDto[][], anchor: AuditEventDto): AuditEventDto[] {
  const found = segments.findLast((segment) => segment[0]!.id <= anchor.id) ?? segments[0];
  return found ?? [anchor];
}

/**
 * Attempts stored without agent or tool (written before refusals looked their call up) borrow them
 * from another history entry of the same call: one indexed read for the page.
 */
async function fillKnownCalls(db: Awaited<ReturnType<typeof getDb>>, entries: HistoryEntryDto[]): Promise<void> {
  const missing = entries.filter((entry) => entry.head.runId && (!entry.agentId || !entry.toolName));
  if (missing.length === 0) return;
  const known = await db.auditEvent.findMany({
    where: { runId: { in: [...new Set(missing.map((entry) => entry.head.runId))] }, agentId: { not: null } },
    select: { runId: true, toolCallId: true, agentId: true, toolName: true },
    orderBy: { id: "desc" },
    take: 500,
  });
  for (const entry of missing) {
    const sameRun = known.filter((event) => event.runId === entry.head.runId);
    const sameCall = sameRun.find((event) => event.toolCallId === entry.head.toolCallId && event.toolName);
    entry.agentId ??= sameCall?.agentId ?? sameRun[0]?.agentId ?? null;
    entry.toolName ??= sameCall?.toolName ?? null;
  }
}
