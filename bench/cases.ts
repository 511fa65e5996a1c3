/**
 * What the benchmark measures: the listing cases (perPage 50) and the shape of its results, shared
 * by the run (run.ts) and its report (report.ts).
 */
import os from "node:os";
import { backlogShape, caseValues } from "./backlog.ts";
import type { BuiltStore } from "./stores.ts";
import type { MillionResults } from "./million-report.ts";
import type { ThreadPageResult } from "./threads.ts";
import type { OpenLoopResult } from "./load-report.ts";
import type { LiveResult } from "./live-report.ts";
import type { TokenFloorResult } from "./targets.ts";
import type { WritePathResult } from "./write-path.ts";
import type { Stats } from "./timing.ts";

export const PER_PAGE = 50;

export const v = caseValues();
export interface Case {
  id: string;
  label: string;
  /** Our cross-agent listing (the console's query). */
  ours: Record<string, unknown>;
  /** Mastra's agent.listSuspendedRuns() on agent `refunds`; ours with agentId "refunds" is its exact equivalent. */
  mastra: Record<string, unknown>;
}
const page0 = { perPage: PER_PAGE, page: 0 };
export const CASES: Case[] = [
  { id: "none", label: "no filter", ours: { ...page0 }, mastra: { ...page0 } },
  { id: "resource", label: "resourceId", ours: { resourceId: v.resourceId, ...page0 }, mastra: { resourceId: v.resourceId, ...page0 } },
  { id: "thread", label: "threadId", ours: { threadId: v.threadId, ...page0 }, mastra: { threadId: v.threadId, ...page0 } },
  { id: "agent", label: "agentId", ours: { agentId: v.agentId, ...page0 }, mastra: { ...page0 } },
  { id: "day", label: "one-day window", ours: { ...v.day, ...page0 }, mastra: { ...v.day, ...page0 } },
  { id: "deep", label: "page 500 of 50", ours: { perPage: PER_PAGE, page: 500 }, mastra: { perPage: PER_PAGE, page: 500 } },
];
export const scoped = (c: Case) => ({ ...c.mastra, agentId: v.agentId });

export interface OurResult {
  stats: Stats;
  total: number;
  runs: number;
}
export interface MastraResult {
  stats?: Stats;
  total?: number;
  timedOut?: boolean;
  error?: string;
  samples: number[];
  rssMb?: number;
}

/** The results object the run fills in and the report reads. */
export function createResults({ quick, capMs }: { quick: boolean; capMs: number }) {
  return {
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memGb: Math.round(os.totalmem() / 1e9),
      node: process.version,
      loadAvgAtStart: os.loadavg().map((x) => Math.round(x * 10) / 10),
      loadAvgAtEnd: [] as number[],
    },
    mode: quick ? "quick" : "full",
    capMs,
    perPage: PER_PAGE,
    backlog: {} as Record<number, ReturnType<typeof backlogShape>>,
    stores: [] as BuiltStore[],
    cases: CASES.map(({ id, label, ours, mastra }) => ({ id, label, ours, mastra })),
    /** ours[engine][size][caseId] = cross-agent; oursScoped = agentId "refunds" (Mastra's equivalent) */
    ours: {} as Record<string, Record<number, Record<string, OurResult>>>,
    oursScoped: {} as Record<string, Record<number, Record<string, OurResult>>>,
    /** bareScoped[size][caseId]: Mastra's equivalent (agentId "refunds") as bare prepared statements on our SQLite store. */
    bareScoped: {} as Record<number, Record<string, OurResult>>,
    mastra: {} as Record<string, Record<number, Record<string, MastraResult>>>,
    /** threads[engine][size][caseId]: the review queue's pages of threads (bench/threads.ts). */
    threads: {} as Record<string, Record<number, Record<string, ThreadPageResult>>>,
    /** context[engine][size]: opening a call with its context (bench/context-child.ts). */
    context: {} as Record<string, Record<number, { stats: Stats; calls: number }>>,
    /** rules[engine][size]: 100 rules per newly waiting call, and a dry run over the backlog (bench/rules-child.ts). */
    rules: {} as Record<string, Record<number, RulesResult>>,
    /** history.sqlite / history.pg: a rule's backtest and the suggested rules over a history of decisions (bench/history-child.ts). */
    history: {} as Partial<Record<"sqlite" | "pg", HistoryResult>>,
    writePath: undefined as WritePathResult | undefined,
    mismatches: [] as string[],
    page: undefined as unknown,
    /** load[db]: the open-loop load (bench/open-loop.ts, bench/load-report.ts). */
    load: {} as Record<string, OpenLoopResult | undefined>,
    /** bench/live.ts (full runs only): the live queue's idle cost and propagation across instances. */
    live: undefined as LiveResult | undefined,
    /** bench/open-loop.ts --live-streams 1000 --conditional on PostgreSQL (full runs only): the load, replaced. */
    liveLoad: undefined as OpenLoopResult | undefined,
    /** tokenFloor[db]: the floor route signed in with a session vs an API token (bench/token-floor.ts). */
    tokenFloor: {} as Record<string, TokenFloorResult | undefined>,
    decision: undefined as unknown,
    /** bench/remote-decision.ts: a decision through the example Mastra server vs embedded (full runs only). */
    remoteDecision: undefined as unknown,
    /** bench/bulk.ts: a bulk approval of N calls vs N single approvals, per store. */
    bulk: undefined as unknown,
    /** bench/audit-chain.ts: decision throughput with the audit hash chain vs without, audit:verify over many rows. */
    auditChain: undefined as unknown,
    memory: undefined as unknown,
    /** bench/million.ts (full runs only): PostgreSQL at 10k, 100k and 1M waiting runs generated in SQL. */
    million: undefined as (MillionResults & { error?: string }) | undefined,
    /** bench/insights.ts: every panel of /insights over a month of decisions (full: 1M; quick: 10k). */
    insights: undefined as unknown,
    targets: [] as Array<{ target: string; value: string; met: boolean }>,
    seconds: 0,
  };
}

export type BenchResults = ReturnType<typeof createResults>;

/** What bench/rules-child.ts answers. */
export interface RulesResult {
  /** firstMatch over 100 rules that miss every call (all 100 checked), ms per call. */
  evaluation: Stats;
  compileMs: number;
  rules: number;
  calls: number;
  matchedByHundred: number;
  /** dryRunRule over every waiting call, ms per dry run. */
  dryRun: Stats;
  waiting: number;
  matched: number;
}

/** What bench/history-child.ts answers per database. */
export interface HistoryResult {
  /** Decisions in the history (all within the 30 days replayed). */
  size: number;
  generateMs: number;
  /** A backtest of a rule naming no agent or tool: every decision of the period read and replayed. */
  backtestAll: Stats;
  backtestAllMatched: number;
  /** A backtest of a rule of one agent and tool. */
  backtestScoped: Stats;
  backtestScopedMatched: number;
  /** The suggested rules with their defaults (30 days, 20 calls, never wrong), first page of 10. */
  proposals: Stats;
  proposalsConsidered: number;
  proposalsOffered: number;
}
