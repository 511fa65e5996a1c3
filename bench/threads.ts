/**
 * The review queue's pages of threads (lib/runs/list-threads.ts) on our stores: the default sort,
 * the other sort, each filter, the overdue filter and a deep page, totals included. Timed like the
 * runs listing; the report puts them in their own table (bench/results.md, "Pages of threads").
 */
import { getDb } from "../lib/db/client.ts";
import { databaseProvider } from "../lib/db/database-url.ts";
import { listThreads, NO_THREAD_KEY, type ThreadListing } from "../lib/runs/list-threads.ts";
import type { ListThreadsOptions } from "../lib/runs/validations.ts";
import { overdueCutoff, riskCutoffs as reviewCutoffs } from "../lib/queue/review-target.ts";
import { v } from "./cases.ts";
import { measure, type Stats } from "./timing.ts";

/** The queue's default page size (threads). */
export const THREADS_PER_PAGE = 20;

export interface ThreadCase {
  id: string;
  label: string;
  options: Omit<ListThreadsOptions, "overdueBefore">;
  /** Measured with half the backlog's calls rated by rules (rateSome), each risk with its own target. */
  rated?: boolean;
}

const first = { perPage: THREADS_PER_PAGE, page: 0 };
export const THREAD_CASES: ThreadCase[] = [
  { id: "oldest", label: "no filter, longest waiting first", options: { ...first } },
  { id: "newest", label: "no filter, shortest waiting first", options: { ...first, sort: "newest" } },
  { id: "agent", label: "agentId", options: { agentId: v.agentId, ...first } },
  { id: "resource", label: "resourceId", options: { resourceId: v.resourceId, ...first } },
  { id: "thread", label: "threadId (all its calls)", options: { threadId: v.threadId, ...first, callsPerThread: 1_000 } },
  { id: "day", label: "one-day window", options: { ...v.day, ...first } },
  { id: "overdue", label: "overdue=1", options: { onlyOverdue: true, ...first } },
  { id: "agent-overdue", label: "agentId + overdue=1", options: { agentId: v.agentId, onlyOverdue: true, ...first } },
  { id: "assigned", label: "assigned=me (20 threads + 30 calls held)", options: { assignedTo: "bench-assignee", ...first } },
  { id: "deep", label: "last page", options: { perPage: THREADS_PER_PAGE, page: -1 } },
  { id: "rated", label: "half the calls rated: no filter", options: { ...first }, rated: true },
  { id: "rated-overdue", label: "half the calls rated: overdue=1", options: { onlyOverdue: true, ...first }, rated: true },
  { id: "risk-high", label: "risk=high (1 call in 8)", options: { risks: ["high"], ...first }, rated: true },
  { id: "risk-sort", label: "highest risk first", options: { sort: "risk", ...first }, rated: true },
];

export interface ThreadPageResult {
  stats: Stats;
  threadTotal: number;
  callTotal: number;
  /** Calls on the page (what the browser receives). */
  shownCalls: number;
  page: number;
}

/** Times every case on one store; the deep case's page is the last one of the whole queue. */
export async function measureThreadPages(url: string, quick: boolean): Promise<Record<string, ThreadPageResult>> {
  const overdueBefore = overdueCutoff();
  const whole = await listThreads({ ...first, overdueBefore }, url);
  const lastPage = Math.max(0, Math.ceil(whole.threadTotal / THREADS_PER_PAGE) - 1);
  const results: Record<string, ThreadPageResult> = {};
  const unassign = await assignSome(url, whole);
  try {
    await measureCases(url, quick, lastPage, overdueBefore, results, false);
  } finally {
    await unassign();
  }
  const unrate = await rateSome(url);
  try {
    await measureCases(url, quick, lastPage, overdueBefore, results, true);
  } finally {
    await unrate();
  }
  return results;
}

async function measureCases(
  url: string,
  quick: boolean,
  lastPage: number,
  overdueBefore: Date,
  results: Record<string, ThreadPageResult>,
  rated: boolean,
) {
  const riskCutoffs = rated ? { riskCutoffs: reviewCutoffs() } : {};
  for (const c of THREAD_CASES.filter((candidate) => Boolean(candidate.rated) === rated)) {
    const page = c.options.page === -1 ? lastPage : (c.options.page ?? 0);
    const options = { ...c.options, page, overdueBefore, ...riskCutoffs };
    const { stats, last } = await measure<ThreadListing>(
      () => listThreads(options, url),
      quick ? { warmup: 5, minSamples: 15, budgetMs: 400, maxSamples: 60 } : {},
    );
    results[c.id] = {
      stats,
      threadTotal: last.threadTotal,
      callTotal: last.callTotal,
      shownCalls: last.threads.reduce((sum, thread) => sum + thread.shownRuns.reduce((n, run) => n + run.toolCalls.length, 0), 0),
      page,
    };
  }
}

/**
 * What the assigned=me case lists: one reviewer holding 20 threads (those of the queue's first
 * page) and 30 calls of runs further down, as a busy reviewer would. Removed after measuring, so a
 * kept store is left as it was built.
 */
async function assignSome(url: string, firstPage: ThreadListing): Promise<() => Promise<void>> {
  const db = await getDb(url);
  const assignee = { assigneeId: "bench-assignee", assignedBy: "bench@example.com", assignedAt: new Date() };
  const threadIds = firstPage.threads.map((thread) => thread.threadKey).filter((key) => key !== NO_THREAD_KEY);
  const runs = await db.workflowSnapshot.findMany({
    where: { status: "suspended", agentId: { not: null } },
    select: { runId: true, toolCalls: true },
    orderBy: { createdAt: "asc" },
    skip: 500,
    take: 30,
  });
  const calls = runs.flatMap((run) => {
    const [call] = JSON.parse(run.toolCalls ?? "[]") as Array<{ toolCallId?: string }>;
    return call?.toolCallId ? [{ runId: run.runId, toolCallId: call.toolCallId, ...assignee }] : [];
  });
  await db.threadAssignment.createMany({ data: threadIds.map((threadId) => ({ threadId, ...assignee })) });
  await db.callAssignment.createMany({ data: calls });
  return async () => {
    await db.threadAssignment.deleteMany({ where: { assigneeId: assignee.assigneeId } });
    await db.callAssignment.deleteMany({ where: { assigneeId: assignee.assigneeId } });
  };
}

/**
 * Half the backlog's calls rated by rules, as call_rule_matches rows (what claiming them writes):
 * one in eight critical, high, medium and low each, the rest matched by no rule. Removed after
 * measuring, so a kept store is left as it was built.
 */
async function rateSome(url: string): Promise<() => Promise<void>> {
  const db = await getDb(url);
  const risks = ["critical", "high", "medium", "low"] as const;
  const runs = await db.workflowSnapshot.findMany({
    where: { status: "suspended", agentId: { not: null } },
    select: { runId: true, toolCalls: true },
    orderBy: { runId: "asc" },
  });
  const matchedAt = new Date();
  const rows = runs.flatMap((run, index) =>
    (JSON.parse(run.toolCalls ?? "[]") as Array<{ toolCallId?: string }>).flatMap((call) =>
      call.toolCallId
        ? [
            {
              runId: run.runId,
              toolCallId: call.toolCallId,
              ruleId: "bench-rule",
              ruleVersion: 1,
              effect: "ask",
              risk: risks[index % 8] ?? null,
              matchedAt,
            },
          ]
        : [],
    ),
  );
  for (let start = 0; start < rows.length; start += 1_000) await db.callRuleMatch.createMany({ data: rows.slice(start, start + 1_000) });
  // Rating in 1,000-row statements leaves each summary row updated hundreds of times: at 1M,
  // waiting_thread_risks held 80k rows and 1.7M dead ones, and its scans read them all. A live
  // system's autovacuum clears that within a minute or two; it is off on the dev machines, so this
  // does it, as bench/stores.ts does after loading, and the cases measure the queue after it.
  const vacuum = async () => {
    if (databaseProvider(url) === "postgres") {
      await db.$executeRawUnsafe(`VACUUM ANALYZE "call_rule_matches", "waiting_call_risks", "waiting_run_risks", "waiting_thread_risks"`);
    }
  };
  await vacuum();
  // The same after removing them: a kept store measured again would otherwise read 500k dead matches
  // (at 1M, "is any call rated?" scanned them all: 20-120 ms on every page).
  return async () => {
    await db.callRuleMatch.deleteMany({ where: { ruleId: "bench-rule" } });
    await vacuum();
  };
}

/** The "Pages of threads" table and its targets (full run: < 10 ms SQLite, < 20 ms PG, growth < 2x). */
export function threadsReport(
  threads: Record<string, Record<number, Record<string, ThreadPageResult>>>,
  [small, large]: number[],
  quick: boolean,
): { table: string; targets: Array<{ target: string; value: string; met: boolean }> } {
  const cell = (r?: ThreadPageResult) => (r ? `${r.stats.median.toFixed(2)} / ${r.stats.p95.toFixed(2)}` : "–");
  const growth = (engine: string, id: string) => {
    const a = threads[engine]?.[small!]?.[id];
    const b = threads[engine]?.[large!]?.[id];
    return a && b ? b.stats.median / a.stats.median : NaN;
  };
  const lines = [
    "| case | backlog | threads / calls matching | calls on the page | SQLite med / p95 ms | growth | PG med / p95 ms | growth |",
    "|" + " --- |".repeat(8),
  ];
  for (const c of THREAD_CASES) {
    for (const size of [small!, large!]) {
      const s = threads.sqlite?.[size]?.[c.id];
      const p = threads.pg?.[size]?.[c.id];
      const g = (engine: string) => (size === large ? `${growth(engine, c.id).toFixed(2)}x` : "");
      const totals = s ? `${s.threadTotal.toLocaleString("en")} / ${s.callTotal.toLocaleString("en")}` : "–";
      const label = c.id === "deep" && s ? `${c.label} (page ${s.page + 1})` : c.label;
      lines.push(
        `| ${label} | ${size.toLocaleString("en")} | ${totals} | ${s?.shownCalls.toLocaleString("en") ?? "–"} | ${cell(s)} | ${g("sqlite")} | ${cell(p)} | ${g("pg")} |`,
      );
    }
  }
  const worst = (engine: string) => Math.max(...THREAD_CASES.map((c) => threads[engine]?.[large!]?.[c.id]?.stats.median ?? Infinity));
  const worstGrowth = (engine: string) => Math.max(...THREAD_CASES.map((c) => growth(engine, c.id)));
  const targets = [];
  const at = large!.toLocaleString("en");
  for (const [engine, name, fullLimit] of [
    ["sqlite", "SQLite", 10],
    ["pg", "PostgreSQL", 20],
  ] as const) {
    const limit = quick ? 50 : fullLimit;
    const qualifier = quick ? `; quick mode's threshold, the full run checks < ${fullLimit} ms at 100k` : "";
    targets.push({
      target: `page of threads at ${at}, slowest case median < ${limit} ms (${name}${qualifier})`,
      value: `${worst(engine).toFixed(2)} ms`,
      met: worst(engine) < limit,
    });
    if (!quick)
      targets.push({
        target: `page of threads 10k → 100k < 2x for every case (${name})`,
        value: `${worstGrowth(engine).toFixed(2)}x`,
        met: worstGrowth(engine) < 2,
      });
  }
  return { table: lines.join("\n"), targets };
}
