/**
 * The benchmark's backlog: snapshot rows cloned from templates captured from real demo-agent runs.
 *
 * Templates: the demo agents (lib/mastra) are run once into suspension on a scratch SQLite database
 * (lib/mastra/demo/seed.ts, the same code as `npm run seed`); both snapshot rows of every run
 * (`agentic-loop` and its nested `executionWorkflow`) are read back and kept in
 * bench/out/templates-v<N>.json, so later runs reuse them (and the cache keys stay stable).
 *
 * Clones: each template snapshot is cut once into literal segments and "holes" (runId, toolCallId,
 * thread, resource, the agent id, epoch-ms and ISO timestamps); a clone is the segments joined with
 * fresh values, timestamps shifted by the same delta, so every id inside the JSON stays consistent.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const OUT_DIR = path.join(BENCH_DIR, "out");
/** Bump when the generator or the seeded shapes change: it names the templates file and is part of every cache key. */
const GENERATOR_VERSION = 6;
export const TEMPLATES_FILE = path.join(OUT_DIR, `templates-v${GENERATOR_VERSION}.json`);

export interface TemplateRow {
  workflowName: string;
  /** The row the run is listed and resumed by (an agent-loop row, or a workflow's own row). */
  outer: boolean;
  resourceId: string | null;
  snapshot: string;
  createdAt: string;
  updatedAt: string;
}
export interface TemplateRun {
  runId: string;
  agentId: string;
  /** Null for a run without a thread (or without memory at all: no resource either). */
  threadId: string | null;
  resourceId: string | null;
  /** Ids that are unique per run and so get a fresh value per clone (a workflow's step ids are not). */
  toolCallIds: string[];
  rows: TemplateRow[];
}

export async function loadTemplates(log: (line: string) => void = console.log): Promise<{ templates: TemplateRun[]; hash: string }> {
  if (!existsSync(TEMPLATES_FILE)) await captureTemplates(log);
  const text = readFileSync(TEMPLATES_FILE, "utf8");
  const hash = createHash("sha256").update(text).update(`v${GENERATOR_VERSION}`).digest("hex").slice(0, 10);
  return { templates: JSON.parse(text) as TemplateRun[], hash };
}

/** Runs the demo agents into suspension on a scratch database and keeps their snapshot rows. */
async function captureTemplates(log: (line: string) => void): Promise<void> {
  mkdirSync(OUT_DIR, { recursive: true });
  const scratch = path.join(OUT_DIR, `templates-scratch-${process.pid}.db`);
  const url = `file:${scratch}`;
  log(`capturing snapshot templates: running the demo agents into suspension on ${path.relative(process.cwd(), scratch)}`);
  const { deployMigrations } = await import("../lib/db/migrate.ts");
  const { seedDemoRuns } = await import("../lib/mastra/demo/seed.ts");
  const { getDb, disconnectDb } = await import("../lib/db/client.ts");
  await deployMigrations(url);
  await seedDemoRuns(url, { reset: true, log });
  const db = await getDb(url);
  const rows = await db.workflowSnapshot.findMany({ orderBy: [{ createdAt: "asc" }, { workflowName: "asc" }] });
  await disconnectDb(url);
  const byRun = new Map<string, TemplateRun>();
  for (const row of rows.filter((r) => r.agentId)) {
    byRun.set(row.runId, {
      runId: row.runId,
      agentId: row.agentId!,
      threadId: row.threadId,
      resourceId: row.resourceId,
      toolCallIds: (JSON.parse(row.toolCalls ?? "[]") as Array<{ toolCallId?: string; step?: string[] }>).flatMap((c) =>
        c.toolCallId && !c.step ? [c.toolCallId] : [],
      ),
      rows: [],
    });
  }
  for (const row of rows) {
    byRun.get(row.runId)?.rows.push({
      workflowName: row.workflowName,
      outer: row.agentId !== null,
      resourceId: row.resourceId,
      snapshot: row.snapshot,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    });
  }
  // Every shape the seed has: agent runs (two rows: the loop and Mastra's executionWorkflow, on a
  // thread or none), supervisors' outer runs, parallel calls, workflow runs (one row of their own).
  const templates = [...byRun.values()].filter((t) => t.rows.some((row) => row.outer));
  writeFileSync(TEMPLATES_FILE, JSON.stringify(templates));
  for (const suffix of ["", "-wal", "-shm"]) rmSync(scratch + suffix, { force: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(scratch.replace(/\.db$/, ".mastra.db") + suffix, { force: true });
  log(`captured ${templates.length} runs (${templates.length * 2} snapshot rows) into ${path.relative(process.cwd(), TEMPLATES_FILE)}`);
}

/* ---------- compiled templates ---------- */

export type Hole =
  { kind: "runId" | "thread" | "resource" | "agent" } | { kind: "toolCall"; index: number } | { kind: "ms" | "iso"; offset: number };

export interface CompiledSnapshot {
  workflowName: string;
  parts: Array<string | Hole>;
  createdOffset: number;
  updatedOffset: number;
}
export interface CompiledRun {
  agentId: string;
  /** Whether clones get a resource (a run without memory has none). */
  hasResource: boolean;
  suspended: CompiledSnapshot[];
  completed: CompiledSnapshot[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
export const DAY = 86_400_000;

function compileSnapshot(template: TemplateRun, workflowName: string, json: string, t0: number, row: TemplateRow): CompiledSnapshot {
  const literals: Array<[string, Hole]> = [
    [template.runId, { kind: "runId" }],
    ...(template.threadId ? [[template.threadId, { kind: "thread" }] as [string, Hole]] : []),
    ...(template.resourceId ? [[template.resourceId, { kind: "resource" }] as [string, Hole]] : []),
    [JSON.stringify(template.agentId), { kind: "agent" }],
    ...template.toolCallIds.map((id, index): [string, Hole] => [id, { kind: "toolCall", index }]),
  ];
  const pattern = new RegExp(
    [...literals.map(([text]) => escape(text)), "\\b1\\d{12}\\b", "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"].join("|"),
    "g",
  );
  const parts: Array<string | Hole> = [];
  let last = 0;
  for (const match of json.matchAll(pattern)) {
    const text = match[0];
    let hole: Hole | undefined = literals.find(([literal]) => literal === text)?.[1];
    if (!hole) {
      const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
      if (Math.abs(ms - t0) > DAY) continue; // a number that is not a timestamp of this run
      hole = { kind: /^\d+$/.test(text) ? "ms" : "iso", offset: ms - t0 };
    }
    parts.push(json.slice(last, match.index), hole);
    last = match.index + text.length;
  }
  parts.push(json.slice(last));
  return {
    workflowName,
    parts,
    createdOffset: Date.parse(row.createdAt) - t0,
    updatedOffset: Date.parse(row.updatedAt) - t0,
  };
}

/** The same run, finished: top-level and step statuses no longer "suspended". */
function completedVariant(json: string): string {
  const snapshot = JSON.parse(json);
  snapshot.status = "success";
  for (const step of Object.values((snapshot.context ?? {}) as Record<string, { status?: string }>)) {
    if (step && typeof step === "object" && step.status === "suspended") step.status = "success";
  }
  snapshot.suspendedPaths = {};
  snapshot.resumeLabels = {};
  return JSON.stringify(snapshot);
}

export function compileTemplates(templates: TemplateRun[]): CompiledRun[] {
  return templates.map((template) => {
    const t0 = Date.parse(template.rows.find((r) => r.outer)!.createdAt);
    const order = [...template.rows].sort((a, b) => (a.outer ? -1 : 1) - (b.outer ? -1 : 1));
    return {
      agentId: template.agentId,
      hasResource: template.resourceId !== null,
      suspended: order.map((row) => compileSnapshot(template, row.workflowName, row.snapshot, t0, row)),
      completed: order.map((row) => compileSnapshot(template, row.workflowName, completedVariant(row.snapshot), t0, row)),
    };
  });
}

/* ---------- the backlog ---------- */

/** Deterministic PRNG (mulberry32). */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Threads per resource (customer): the backlog grows by having more customers, each of the same
 * size (about 100 runs), as a growing product does. With a fixed number of resources a customer at
 * 100k had ten times the runs it had at 10k, so "a customer's pending runs" measured a 10x larger
 * answer rather than a 10x larger store.
 */
export const THREADS_PER_RESOURCE = 2;
export const DAYS = 30;
/** Runs per thread on average: 10k runs → 200 threads, 100k runs → 2,000 threads. */
export const RUNS_PER_THREAD = 50;
/** Backlog timestamps: 30 days ending here (fixed, so cached databases stay valid). */
export const BACKLOG_START = Date.UTC(2026, 9, 1);
/** Share of the suspended runs owned by an agent this Mastra instance does not serve. */
export const OTHER_AGENT_SHARE = 0.05;
/** Completed agent-loop runs added as noise, relative to the suspended backlog. */
export const COMPLETED_SHARE = 0.1;

export const resourceName = (r: number) => `cust_b${String(r).padStart(4, "0")}`;
export const threadName = (t: number) => `ticket-b${String(t).padStart(6, "0")}`;

export interface BacklogRow {
  workflowName: string;
  runId: string;
  resourceId: string | null;
  snapshot: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface BacklogShape {
  suspended: number;
  completed: number;
  threads: number;
  resources: number;
}

export function backlogShape(size: number): BacklogShape {
  const completed = Math.round(size * COMPLETED_SHARE);
  const threads = Math.max(1, Math.round(size / RUNS_PER_THREAD));
  return { suspended: size, completed, threads, resources: Math.max(1, Math.round(threads / THREADS_PER_RESOURCE)) };
}

function hex(random: () => number, length: number): string {
  let out = "";
  while (out.length < length)
    out += Math.floor(random() * 0x100000000)
      .toString(16)
      .padStart(8, "0");
  return out.slice(0, length);
}

/**
 * Yields the backlog of `size` suspended runs (5% of them another agent's) plus 10% completed runs,
 * cloned from every seeded shape (an agent run is two rows, a workflow run one), spread over the
 * demo agents and workflow, size/50 threads (runs without a thread stay so), two threads per resource and 30 days.
 * The same size gives the same rows every time.
 */
export function* generateBacklog(compiled: CompiledRun[], size: number): Generator<BacklogRow[]> {
  const random = prng(size * 7919 + 17);
  const { completed, threads, resources } = backlogShape(size);
  for (let i = 0; i < size + completed; i++) {
    const template = compiled[Math.floor(random() * compiled.length)]!;
    const isCompleted = i >= size;
    const isOtherAgent = !isCompleted && random() < OTHER_AGENT_SHARE;
    const thread = Math.floor(random() * threads);
    const resource = resourceName(thread % resources);
    const t0 = BACKLOG_START + Math.floor(random() * DAYS * DAY);
    const h = hex(random, 32);
    const runId = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
    const toolCalls = [`call_${hex(random, 24)}`, `call_${hex(random, 24)}`];
    const agent = JSON.stringify(isOtherAgent ? `legacy-${template.agentId}` : template.agentId);
    const values = { runId, thread: threadName(thread), resource, agent };
    const rows = (isCompleted ? template.completed : template.suspended).map((snapshot) => {
      let json = "";
      for (const part of snapshot.parts) {
        if (typeof part === "string") json += part;
        else if (part.kind === "toolCall") json += toolCalls[part.index];
        else if (part.kind === "ms") json += String(t0 + part.offset);
        else if (part.kind === "iso") json += new Date(t0 + part.offset).toISOString();
        else json += values[part.kind];
      }
      return {
        workflowName: snapshot.workflowName,
        runId,
        resourceId: template.hasResource ? resource : null,
        snapshot: json,
        createdAt: new Date(t0 + snapshot.createdOffset),
        updatedAt: new Date(t0 + snapshot.updatedOffset),
      };
    });
    yield rows;
  }
}

/** The filter values the benchmark cases use, valid at every size. */
export function caseValues() {
  return {
    resourceId: resourceName(7),
    threadId: threadName(7), // a thread of resource 7 (both exist from 800 runs on)
    agentId: "refunds",
    day: { fromDate: new Date(BACKLOG_START + 14 * DAY), toDate: new Date(BACKLOG_START + 15 * DAY - 1) },
  };
}
