/**
 * What a bulk request's refused calls leave in the history, bounded by what exists rather than by how
 * often a client asks. A bulk request names up to 100 calls, and counts once against the refusal
 * budget (so a reviewer's own conflicts with colleagues do not lock them out); written one row per
 * refused call, one reviewer could add 3,000 rows a minute by re-sending a list of unknown ids.
 *
 * - A call the console really looked at (it exists: somebody decided it first, it waits for data,
 *   is assigned to someone else, waits behind another call, …) keeps its own row, so its history
 *   shows the attempt, but once per reviewer, call and code: sending the same calls again adds
 *   nothing. What one client can write this way is bounded by the calls agents created.
 * - The calls that name nothing waiting (an unknown run, a call the run does not wait on) are one
 *   row for the whole request, listing the first of them.
 */
import { appendAudit, type AuditCredential, type AuditEntry, type DecisionVia } from "../audit/log.ts";
import type { Db } from "../db/client.ts";

/** Codes of a call that names nothing the console could look at. */
const NAMES_NOTHING: ReadonlySet<string> = new Set(["run_not_found", "tool_call_not_pending"]);
/** How many of the calls that named nothing the request's row lists by id. */
const LISTED_CALLS = 5;

/** Collects the refused calls of one bulk request, to be written together once all are decided. */
export class BulkRefusals {
  private readonly entries: AuditEntry[] = [];
  private readonly order: Map<string, number>;

  /** `calls`: the request's, whose order the rows keep (calls are decided several at a time). */
  constructor(calls: ReadonlyArray<{ runId: string; toolCallId: string }>) {
    this.order = new Map(calls.map((call, index) => [JSON.stringify([call.runId, call.toolCallId]), index]));
  }

  add(entry: AuditEntry): void {
    this.entries.push(entry);
  }

  /** What decide() learnt of a refused call's tool, for its result. */
  toolNameOf(call: { runId: string; toolCallId: string }): string | undefined {
    return this.entries.find((entry) => entry.runId === call.runId && entry.toolCallId === call.toolCallId)?.toolName ?? undefined;
  }

  /** Writes the rows: each looked-at call's once, the others as one row for the request. */
  async write(
    db: Db,
    {
      reviewer,
      batchId,
      action,
      requested,
      via,
      credential,
    }: { reviewer: string; batchId: string; action: string; requested: number; via?: DecisionVia; credential?: AuditCredential },
  ) {
    const position = (entry: AuditEntry) => this.order.get(JSON.stringify([entry.runId, entry.toolCallId])) ?? 0;
    this.entries.sort((a, b) => position(a) - position(b));
    const lookedAt = this.entries.filter((entry) => !NAMES_NOTHING.has(entry.code ?? ""));
    const namedNothing = this.entries.filter((entry) => NAMES_NOTHING.has(entry.code ?? ""));
    const seen = lookedAt.length
      ? await db.auditEvent.findMany({
          where: {
            reviewer,
            outcome: { in: ["refused", "conflict"] },
            OR: lookedAt.map(({ runId, toolCallId }) => ({ runId, toolCallId })),
          },
          select: { runId: true, toolCallId: true, code: true },
        })
      : [];
    const key = (entry: { runId: string; toolCallId: string; code?: string | null }) =>
      JSON.stringify([entry.runId, entry.toolCallId, entry.code]);
    const written = new Set(seen.map(key));
    for (const entry of lookedAt) {
      if (written.has(key(entry))) continue;
      written.add(key(entry));
      await appendAudit(db, entry);
    }
    if (namedNothing.length === 0) return;
    const codes = [...new Set(namedNothing.map((entry) => entry.code))];
    const listed = namedNothing
      .slice(0, LISTED_CALLS)
      .map((entry) => `${entry.runId.slice(0, 64)}/${entry.toolCallId.slice(0, 64)} (${entry.code})`);
    const more = namedNothing.length - listed.length;
    await appendAudit(db, {
      reviewer,
      batchId,
      via,
      ...credential,
      action,
      outcome: "refused",
      code: codes.length === 1 ? codes[0] : undefined,
      runId: "",
      toolCallId: "",
      message:
        `Bulk ${action}: ${namedNothing.length} of ${requested} calls name no waiting call: ${listed.join(", ")}` +
        (more > 0 ? ` and ${more} more.` : "."),
    });
  }
}
