/** Reading the audit log event by event: the filters, the events' paging, and the CSV export (history.ts groups them into the page's rows). */
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import type { AuditEvent, Prisma } from "../generated/sqlite/client.ts";
import { ACCESS_CHANGES } from "./access-changes.ts";
import type { AuditEventDto } from "./dto.ts";
import type { AuditQuery } from "../search-params.ts";

export type AuditFilters = Omit<AuditQuery, "page" | "perPage">;

export function auditWhere(filters: AuditFilters): Prisma.AuditEventWhereInput {
  return {
    reviewer: filters.reviewer,
    resourceId: filters.resourceId,
    agentId: filters.agentId,
    toolName: filters.toolName,
    outcome: filters.outcome,
    batchId: filters.batch,
    runId: filters.runId,
    at: filters.from || filters.to ? { gte: filters.from, lte: filters.to } : undefined,
    action: filters.kind ? { [filters.kind === "access" ? "in" : "notIn"]: [...ACCESS_CHANGES] } : undefined,
  };
}

/** One page of the events matching `where`, newest first, and how many match. */
export function findEventPage(db: Db, where: Prisma.AuditEventWhereInput, { page, perPage }: Pick<AuditQuery, "page" | "perPage">) {
  return Promise.all([
    db.auditEvent.findMany({ where, orderBy: [{ at: "desc" }, { id: "desc" }], skip: (page - 1) * perPage, take: perPage }),
    db.auditEvent.count({ where }),
  ]);
}

export async function listAuditEvents(
  query: AuditQuery,
  databaseUrl = databaseUrlFromEnv(),
): Promise<{ events: AuditEventDto[]; total: number; page: number; perPage: number; pageCount: number }> {
  const [events, total] = await findEventPage(await getDb(databaseUrl), auditWhere(query), query);
  return { events, total, page: query.page, perPage: query.perPage, pageCount: Math.max(1, Math.ceil(total / query.perPage)) };
}

export const AUDIT_CSV_COLUMNS = [
  "at",
  "reviewer",
  "action",
  "outcome",
  "code",
  "runId",
  "toolCallId",
  "agentId",
  "threadId",
  "resourceId",
  "toolName",
  "args",
  "resumeData",
  "reason",
  "answer",
  "message",
  "decisionId",
  "batchId",
  "assignee",
  // Where a person decided or was refused: console, api or slack (empty for rules, expiry and suggestions).
  "via",
  // How the decider or refused caller authenticated (password, sso, session, token) and, for a token, which one.
  "authMethod",
  "tokenId",
  "tokenName",
] as const satisfies ReadonlyArray<keyof AuditEvent>;

/**
 * One CSV field. Quotes per RFC 4180; a leading =, +, -, @, tab or CR is neutralised with a quote
 * mark so a spreadsheet shows a reviewer's or agent's text instead of evaluating it as a formula.
 */
export function csvField(value: unknown): string {
  let text = value instanceof Date ? value.toISOString() : value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole filtered log as CSV, oldest first, read in batches so memory stays flat. */
export async function* auditCsv(filters: AuditFilters, databaseUrl = databaseUrlFromEnv()): AsyncGenerator<string> {
  const db = await getDb(databaseUrl);
  yield `${AUDIT_CSV_COLUMNS.join(",")}\r\n`;
  let after = 0;
  for (;;) {
    const batch = await db.auditEvent.findMany({
      where: { ...auditWhere(filters), id: { gt: after } },
      orderBy: { id: "asc" },
      take: 1_000,
    });
    if (batch.length === 0) return;
    yield batch.map((event) => `${AUDIT_CSV_COLUMNS.map((column) => csvField(event[column])).join(",")}\r\n`).join("");
    after = batch.at(-1)!.id;
  }
}
