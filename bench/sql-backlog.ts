/**
 * The benchmark's backlog generated inside PostgreSQL: a million runs in minutes, where cloning them
 * in JavaScript and sending every row over the wire (bench/stores.ts) takes hours on this machine.
 *
 * The same templates as bench/backlog.ts (snapshot rows captured from the real demo agents, cut into
 * literal parts and holes: run id, call ids, thread, resource, agent, timestamps), the same mix (a
 * template picked uniformly per run, 5% of suspended runs another agent's, 10% more runs completed,
 * size/50 threads, two threads per resource, 30 days), but drawn from md5 of the run's number
 * instead of bench/backlog.ts's PRNG, so the runs themselves differ.
 *
 * Every column the store keeps is what PrismaWorkflowsStorage would have written for that snapshot:
 * each template row's columns are computed once by the store's own readSnapshot + snapshotColumns on
 * the template with a marker in every hole, and cut at the markers like the snapshot is, so SQL
 * only fills holes. The rows go in with INSERT … SELECT with the store's triggers off, and every summary
 * is filled in bulk afterwards (bench/sql-backlog-summaries.ts); `summaries: "triggers"` (or a role
 * that may not turn triggers off) keeps them on instead. tests/bench/sql-backlog.test.ts compares a small
 * generated backlog row for row and summary for summary with the same runs written through the store.
 */
import pg from "pg";
import { readSnapshot } from "@agent-approvals/mastra-store";
import { fillSummaries, triggersOff } from "./sql-backlog-summaries.ts";
import { snapshotColumns } from "../packages/mastra-store/src/serialize.ts";
import {
  BACKLOG_START,
  backlogShape,
  compileTemplates,
  DAY,
  DAYS,
  OTHER_AGENT_SHARE,
  type CompiledSnapshot,
  type Hole,
  type TemplateRun,
} from "./backlog.ts";

/** A string with holes: literal, hole, literal, …, literal (holes at the odd 0-based positions). */
type Cut = string[];

const MARK = (name: string) => `\u27e6${name}\u27e7`;
const MARKS: Record<string, string> = {
  [MARK("runId")]: "runId",
  [MARK("thread")]: "thread",
  [MARK("resource")]: "resource",
  [MARK("agent")]: "agentRaw",
  [MARK("call0")]: "call0",
  [MARK("call1")]: "call1",
};
/** Timestamps of the marked template: a run "starting" on 2100-01-01, which no template holds otherwise. */
const MARK_T0 = Date.UTC(2100, 0, 1);
const MARK_PATTERN = new RegExp(
  [...Object.keys(MARKS), "\\b4\\d{12}\\b", "2(?:099|100)-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"].join("|"),
  "g",
);

/** The hole a marker stands for, or null for a number or date that only looks like one. */
function holeOfMark(text: string): string | null {
  if (MARKS[text]) return MARKS[text];
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (Math.abs(ms - MARK_T0) > DAY) return null;
  return `${/^\d+$/.test(text) ? "ms" : "iso"}:${ms - MARK_T0}`;
}

function holeName(hole: Hole): string {
  if (hole.kind === "toolCall") return `call${hole.index}`;
  if (hole.kind === "ms" || hole.kind === "iso") return `${hole.kind}:${hole.offset}`;
  return hole.kind;
}

function cutOfSnapshot(snapshot: CompiledSnapshot): Cut {
  const cut: Cut = [""];
  for (const part of snapshot.parts) {
    if (typeof part === "string") cut[cut.length - 1] += part;
    else cut.push(holeName(part), "");
  }
  return cut;
}

/** The template with a marker in every hole: ids as marker strings, timestamps as of MARK_T0. */
function markedSnapshot(snapshot: CompiledSnapshot): string {
  return snapshot.parts
    .map((part) => {
      if (typeof part === "string") return part;
      if (part.kind === "agent") return JSON.stringify(MARK("agent"));
      if (part.kind === "toolCall") return MARK(`call${part.index}`);
      if (part.kind === "ms") return String(MARK_T0 + part.offset);
      if (part.kind === "iso") return new Date(MARK_T0 + part.offset).toISOString();
      return MARK(part.kind);
    })
    .join("");
}

function cutAtMarks(value: string | null | undefined): Cut | null {
  if (value === null || value === undefined) return null;
  const cut: Cut = [];
  let last = 0;
  for (const match of value.matchAll(MARK_PATTERN)) {
    const hole = holeOfMark(match[0]);
    if (hole === null) continue;
    cut.push(value.slice(last, match.index), hole);
    last = match.index + match[0].length;
  }
  cut.push(value.slice(last));
  return cut;
}

/** The hole values every row's format strings take as %1$s … %7$s; its timestamps follow, from %8$s. */
const FIXED_HOLES = ["runId", "thread", "resource", "agent", "agentRaw", "call0", "call1"];

/**
 * A cut as a format() string (PostgreSQL's, in C: a fill of a 20 kB snapshot is one call, where
 * aggregating its parts in SQL cost ~10 ms a run): literals with % doubled, holes as %n$s, a
 * timestamp hole numbered by its place in `times` (shared by all of a row's columns).
 */
function formatOf(cut: Cut | null, times: string[]): string | null {
  if (!cut) return null;
  return cut
    .map((value, n) => {
      if (n % 2 === 0) return value.replaceAll("%", "%%");
      const fixed = FIXED_HOLES.indexOf(value);
      if (fixed >= 0) return `%${fixed + 1}$s`;
      if (!times.includes(value)) times.push(value);
      return `%${FIXED_HOLES.length + times.indexOf(value) + 1}$s`;
    })
    .join("");
}

export interface SqlTemplateRow {
  template: number;
  completed: boolean;
  workflowName: string;
  hasResource: boolean;
  templateAgent: string;
  createdOffset: number;
  updatedOffset: number;
  /** The timestamp holes ("ms:<offset>", "iso:<offset>") the format strings number from %8$s. */
  times: string[];
  snapshot: string;
  status: string;
  agentId: string | null;
  threadId: string | null;
  resourceId: string | null;
  toolCalls: string | null;
  toolCallCount: number;
  requestExcerpt: string | null;
}

/** Every template row, suspended and completed, with its snapshot and the store's columns cut at the holes. */
export function sqlTemplateRows(templates: TemplateRun[]): SqlTemplateRow[] {
  return compileTemplates(templates).flatMap((run, template) =>
    ([false, true] as const).flatMap((completed) =>
      (completed ? run.completed : run.suspended).map((snapshot): SqlTemplateRow => {
        const marked = JSON.parse(markedSnapshot(snapshot));
        const columns = snapshotColumns(readSnapshot(snapshot.workflowName, marked), marked);
        const times: string[] = [];
        return {
          template,
          completed,
          workflowName: snapshot.workflowName,
          hasResource: run.hasResource,
          templateAgent: run.agentId,
          createdOffset: snapshot.createdOffset,
          updatedOffset: snapshot.updatedOffset,
          times,
          snapshot: formatOf(cutOfSnapshot(snapshot), times)!,
          status: columns.status,
          agentId: formatOf(cutAtMarks(columns.agentId), times),
          threadId: formatOf(cutAtMarks(columns.threadId), times),
          resourceId: formatOf(cutAtMarks(columns.resourceId), times),
          toolCalls: formatOf(cutAtMarks(columns.toolCalls), times),
          toolCallCount: columns.toolCallCount,
          requestExcerpt: formatOf(cutAtMarks(columns.requestExcerpt), times),
        };
      }),
    ),
  );
}

/** A number in [0, 1) drawn from the run's number and a salt. */
const draw = (salt: string) => `(('x' || lpad(substr(md5('${salt}' || i), 1, 8), 16, '0'))::bit(64)::bigint / 4294967296.0)`;

/**
 * Generates the backlog of `size` suspended runs (+10% completed) into `url`'s store, which must be
 * migrated and hold no runs of the same ids. `first` offsets the run numbers (to add in batches).
 */
export async function generateBacklogInSql(
  url: string,
  templates: TemplateRun[],
  size: number,
  // `startAt`: carry on an interrupted build from its lowest unfinished batch (batches are transactions, each
  // run's rows are drawn from its number, and a later batch another session finished is skipped by its keys).
  {
    batch = 50_000,
    log = (_line: string) => {},
    startAt = 0,
    summaries = "bulk",
    sessions = 2,
  }: { batch?: number; log?: (line: string) => void; startAt?: number; summaries?: "bulk" | "triggers"; sessions?: number } = {},
): Promise<void> {
  const rows = sqlTemplateRows(templates);
  const count = templates.length;
  const { completed, threads, resources } = backlogShape(size);
  // A session per core: the rows are CPU work in PostgreSQL (holes filled, snapshots compressed, nine indexes).
  const clients = await Promise.all(Array.from({ length: Math.max(1, sessions) }, () => openSession(url, rows)));
  try {
    const off = await Promise.all(clients.map((client) => (summaries === "bulk" ? triggersOff(client) : false)));
    const bulk = off.every(Boolean);
    if (summaries === "bulk" && !bulk) log("  (not a superuser: the store's triggers keep the summaries, which is slower)");
    const total = size + completed;
    let next = startAt;
    const insertBatches = async (client: pg.Client) => {
      for (let from = next; from < total; from = next) {
        next = from + batch;
        const to = Math.min(total, from + batch) - 1;
        const started = performance.now();
        await client.query(`
        WITH runs AS (
          SELECT i, i >= ${size} AS completed,
            floor(${draw("template")} * ${count})::int AS template,
            i < ${size} AND ${draw("other")} < ${OTHER_AGENT_SHARE} AS other_agent,
            floor(${draw("thread")} * ${threads})::int AS thread_no,
            ${BACKLOG_START}::bigint + floor(${draw("t0")} * ${DAYS * DAY})::bigint AS t0,
            md5('run' || i) AS h,
            'call_' || substr(md5('call0' || i), 1, 24) AS call0,
            'call_' || substr(md5('call1' || i), 1, 24) AS call1
          FROM generate_series(${from}, ${to}) AS i
        ), filled AS (
          SELECT r.*, t.*,
            substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-a' || substr(h, 18, 3) || '-' || substr(h, 21, 12) AS run_id,
            'ticket-b' || lpad(thread_no::text, 6, '0') AS thread,
            'cust_b' || lpad((thread_no % ${resources})::text, 4, '0') AS resource,
            CASE WHEN other_agent THEN 'legacy-' || t.template_agent ELSE t.template_agent END AS agent
          FROM runs AS r JOIN bench_template_rows AS t ON t.template = r.template AND t.completed = r.completed
        ), valued AS MATERIALIZED (
          SELECT f.*, ARRAY[run_id, thread, resource, to_json(agent)::text, agent, call0, call1] || ARRAY(
            SELECT CASE WHEN hole LIKE 'ms:%' THEN (t0 + substr(hole, 4)::bigint)::text
              ELSE to_char(timestamp 'epoch' + (t0 + substr(hole, 5)::bigint) * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END
            FROM unnest(times) WITH ORDINALITY AS u(hole, n) ORDER BY n) AS vals
          FROM filled AS f
        )
        INSERT INTO "workflow_snapshots" ("workflow_name", "run_id", "resource_id", "agent_id", "thread_id", "status",
          "tool_call_count", "version", "created_at", "updated_at", "tool_calls", "request_excerpt", "snapshot")
        SELECT workflow_name, run_id,
          CASE WHEN has_resource THEN resource ELSE format(resource_id, VARIADIC vals) END,
          format(agent_id, VARIADIC vals), format(thread_id, VARIADIC vals),
          status, tool_call_count, 0,
          timestamp 'epoch' + (t0 + created_offset) * interval '1 millisecond',
          timestamp 'epoch' + (t0 + updated_offset) * interval '1 millisecond',
          format(tool_calls, VARIADIC vals), format(request_excerpt, VARIADIC vals), format(snapshot, VARIADIC vals)
        FROM valued
        ON CONFLICT DO NOTHING`);
        log(`  runs ${from.toLocaleString("en")}–${to.toLocaleString("en")} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
    };
    // With the triggers on, sessions would take the summaries' rows in different orders and deadlock.
    await Promise.all((bulk ? clients : clients.slice(0, 1)).map(insertBatches));
    if (bulk) {
      const started = performance.now();
      await fillSummaries(clients[0]!, url);
      log(`  summaries in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}

/** A session holding the template rows (a temporary table) for the generator's statements. */
async function openSession(url: string, rows: SqlTemplateRow[]): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE TEMP TABLE bench_template_rows (
    template int, completed boolean, workflow_name text, has_resource boolean, template_agent text,
    created_offset bigint, updated_offset bigint, times text[], snapshot text, status text, agent_id text, thread_id text,
    resource_id text, tool_calls text, tool_call_count int, request_excerpt text)`);
  for (const row of rows) {
    await client.query(`INSERT INTO bench_template_rows VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`, [
      row.template,
      row.completed,
      row.workflowName,
      row.hasResource,
      row.templateAgent,
      row.createdOffset,
      row.updatedOffset,
      row.times,
      row.snapshot,
      row.status,
      row.agentId,
      row.threadId,
      row.resourceId,
      row.toolCalls,
      row.toolCallCount,
      row.requestExcerpt,
    ]);
  }
  return client;
}
