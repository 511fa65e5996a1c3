/**
 * The open-loop load's part of the report (bench/open-loop.ts, run by bench/run.ts on PostgreSQL
 * with two instances and on SQLite with one): its table with the floor beside the mix, and its
 * target lines. Each line names the threshold it checked; a quick run's are labelled as such.
 */
import type { Target } from "./targets.ts";

interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}
export interface OpenLoopResult {
  db: "postgres" | "sqlite";
  instances: number;
  backlog: number;
  quick: boolean;
  decisionsPerSecond: number;
  loadAverageAtStart: number[];
  phases: Array<{
    target: "mix" | "floor";
    rate: number;
    seconds: number;
    sent: number;
    achievedRate: number;
    rateReached: boolean;
    errors: number;
    errorRate: number;
    readErrorRate: number;
    decisions: { sent: number; approved: number };
    sendLagMs: Percentiles;
    latencyMs: Percentiles;
    loadAverage: number[];
    drainSeconds: number;
    /** With --conditional: GET /api/queue reads sent, those sent with If-None-Match, those answered 304. */
    queueReads?: { sent: number; withEtag: number; notModified: number };
    /** With --live-streams: the held streams still open when the phase ended. */
    streamsOpen?: number;
  }>;
  /** Absent when the run measured none (--saturation-seconds 0). */
  saturation?: {
    mix: { requestsPerSecond: number; latencyMs: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number };
    floor: { requestsPerSecond: number; latencyMs: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number };
    ratio: number;
  };
  /** --live-streams: idle streams asked for, let in, and refused by status. */
  liveStreams?: { asked: number; opened: number; refused: Record<string, number> };
  conditional?: boolean;
  error?: string;
}

/** The full run's targets (issue 27), and a quick run's severe-regression thresholds. */
export const LOAD_TARGETS = {
  full: { rate: 100, p99Ms: 500, saturationShare: 0.5 },
  quick: { p99Ms: 5_000, errorRate: 0.01, saturationShare: 0.02 },
} as const;

const name = (db: string) => (db === "postgres" ? "PostgreSQL" : "SQLite");
const instancesLabel = (n: number) => (n === 1 ? "one instance" : `${n} instances`);

export function loadReport(load: Record<string, OpenLoopResult | undefined>, QUICK: boolean): { table: string; targets: Target[] } {
  const targets: Target[] = [];
  const t = (target: string, value: string, met: boolean) => targets.push({ target, value, met });
  const lines = [
    "| database | instances | requests | rate (req/s) | answered (req/s) | p50 ms | p95 ms | p99 ms | errors | client late p99 ms | load average | waited to drain before (s) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  const saturationLines = [
    "| database | backlog | mix: req/s per instance (p99 ms) | floor: req/s per instance (p99 ms) | mix / floor |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const result of Object.values(load)) {
    if (!result) continue;
    if (result.error || !result.phases) {
      t(`open-loop load ran`, `error: ${result.error ?? "no result"}`, false);
      continue;
    }
    const db = name(result.db);
    for (const p of result.phases) {
      lines.push(
        `| ${db} | ${result.instances} | ${p.target === "mix" ? `mix + ${result.decisionsPerSecond} approvals/s` : "floor (session only)"} | ${p.rate} | ${p.achievedRate}${p.rateReached ? "" : " (short)"} | ${p.latencyMs.p50} | ${p.latencyMs.p95} | ${p.latencyMs.p99} | ${p.errors} of ${p.sent} | ${p.sendLagMs.p99} | ${p.loadAverage[0]} | ${p.drainSeconds} |`,
      );
    }
    const s = result.saturation;
    if (s)
      saturationLines.push(
        `| ${db} | ${result.backlog.toLocaleString("en")} | ${s.mix.requestsPerSecond} (${s.mix.latencyMs.p99}) | ${s.floor.requestsPerSecond} (${s.floor.latencyMs.p99}) | ${(s.ratio * 100).toFixed(0)}% |`,
      );
    const mix = result.phases.filter((p) => p.target === "mix");
    const saturationValue = s
      ? `${s.mix.requestsPerSecond} vs ${s.floor.requestsPerSecond} req/s: ${(s.ratio * 100).toFixed(1)}%`
      : "not measured";
    if (QUICK) {
      const worst = mix.reduce((a, b) => (b.latencyMs.p99 > a.latencyMs.p99 ? b : a), mix[0]!);
      const errorRate = Math.max(...mix.map((p) => p.readErrorRate));
      const sent = mix.reduce((sum, p) => sum + p.decisions.sent, 0);
      const approved = mix.reduce((sum, p) => sum + p.decisions.approved, 0);
      t(
        `open loop at ${mix.map((p) => p.rate).join("/")} req/s across ${instancesLabel(result.instances)} (${db}): p99 < ${LOAD_TARGETS.quick.p99Ms / 1000} s and errors of reads < ${LOAD_TARGETS.quick.errorRate * 100}% (quick mode's threshold; the full run checks p99 < ${LOAD_TARGETS.full.p99Ms} ms at ${LOAD_TARGETS.full.rate} req/s)`,
        `p99 ${worst.latencyMs.p99} ms, errors of reads ${(errorRate * 100).toFixed(1)}%; approvals answered 200: ${approved} of ${sent} (not checked)`,
        worst.latencyMs.p99 < LOAD_TARGETS.quick.p99Ms && errorRate < LOAD_TARGETS.quick.errorRate,
      );
      t(
        `saturation of one instance >= ${LOAD_TARGETS.quick.saturationShare * 100}% of the floor's (${db}; quick mode's threshold, the full run checks >= ${LOAD_TARGETS.full.saturationShare * 100}%)`,
        saturationValue,
        !!s && s.ratio >= LOAD_TARGETS.quick.saturationShare,
      );
      continue;
    }
    const at = mix.find((p) => p.rate === LOAD_TARGETS.full.rate);
    t(
      `p99 at ${LOAD_TARGETS.full.rate} req/s across ${instancesLabel(result.instances)} (${db}) < ${LOAD_TARGETS.full.p99Ms} ms, the rate reached`,
      at
        ? `${at.latencyMs.p99} ms, ${at.achievedRate} req/s answered, ${at.errors} errors, approvals answered 200: ${at.decisions.approved} of ${at.decisions.sent} (load average ${at.loadAverage[0]})`
        : "not measured",
      !!at && at.latencyMs.p99 < LOAD_TARGETS.full.p99Ms && at.rateReached,
    );
    t(
      `saturation of one instance >= ${LOAD_TARGETS.full.saturationShare * 100}% of the floor's (${db})`,
      saturationValue,
      !!s && s.ratio >= LOAD_TARGETS.full.saturationShare,
    );
  }
  return {
    table: `${lines.join("\n")}\n\nSaturation (autocannon, closed loop on one instance):\n\n${saturationLines.join("\n")}`,
    targets,
  };
}
