/**
 * The live queue's part of the report (issue 45): bench/live.ts (idle cost, propagation across
 * instances idle and under the open-loop mix) and the open-loop load re-measured with live streams
 * held and conditional reads (bench/open-loop.ts --live-streams --conditional). Its tables and its
 * target lines: each line names the threshold it checked, and a figure that is missing is reported
 * "not measured", never met.
 */
import type { IdleCost } from "./live-idle.ts";
import type { PropagationResult, PropagationSide } from "./live-propagation.ts";
import type { OpenLoopResult } from "./load-report.ts";
import type { Target } from "./targets.ts";

/** What bench/live.ts answers with --json. */
export interface LiveResult {
  streams: number;
  pollers: number;
  seconds: number;
  idle: IdleCost[];
  propagation?: PropagationResult;
  loadAverageAtStart: number[];
  loadAverageAtEnd: number[];
  error?: string;
}

export const LIVE_TARGETS = {
  /** Idle streams: server CPU below this share of one core. */
  idleCpuShare: 0.05,
  /** Decision on A to its event, and to the row gone, on B: p95 below this, under the mix at this rate at least. */
  propagationP95Ms: 500,
  propagationRate: 50,
  /** Streams open at once: idle, and held through the load. */
  streams: 1_000,
  /** The load, replaced: p99 below this at this rate across two instances. */
  loadRate: 100,
  loadP99Ms: 500,
} as const;

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
const ms = (side: PropagationSide, which: "eventMs" | "rowMs") => `${side[which].p50} / ${side[which].p95} / ${side[which].p99}`;

export function liveReport(live: LiveResult | undefined, liveLoad: OpenLoopResult | undefined): { table: string; targets: Target[] } {
  const targets: Target[] = [];
  const t = (target: string, value: string, met: boolean) => targets.push({ target, value, met });
  const sections: string[] = [];

  const idleTarget = (db: string) =>
    `${db}: ${LIVE_TARGETS.streams.toLocaleString("en")} idle live streams use < ${LIVE_TARGETS.idleCpuShare * 100}% of a core`;
  if (live?.idle?.length) {
    sections.push(
      [
        `Idle cost: ${live.streams} open streams for ${live.seconds} s, beside ${live.pollers} tabs reading the queue every 3 s (as the page did before)`,
        "",
        "| database | streams open | CPU (one core), streams idle | the same, no stream open | memory per stream | CPU, pollers | CPU, pollers scaled to streams |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        ...live.idle.map(
          (row) =>
            `| ${row.label} | ${row.opened} | ${pct(row.idleCpu)} | ${row.baselineCpu === undefined ? "–" : pct(row.baselineCpu)} | ${row.perStreamKiB.toFixed(1)} KiB | ${pct(row.pollCpu)} (${row.reads} reads) | ${pct(row.pollCpuScaled)} |`,
        ),
      ].join("\n"),
    );
  }
  for (const db of ["SQLite", "PostgreSQL"]) {
    const row = live?.idle?.find((r) => r.label.startsWith(db));
    if (!row) t(idleTarget(db), live?.error ? `error: ${live.error}` : "not measured", false);
    else
      t(
        idleTarget(db),
        `${pct(row.idleCpu)} with ${row.opened} streams open (${row.perStreamKiB.toFixed(1)} KiB each${row.baselineCpu === undefined ? "" : `; ${pct(row.baselineCpu)} with none`}); ${live!.pollers} tabs polling every 3 s: ${pct(row.pollCpu)}`,
        row.idleCpu < LIVE_TARGETS.idleCpuShare && row.opened >= LIVE_TARGETS.streams,
      );
  }

  const p = live?.propagation;
  if (p) {
    const load = p.underLoad.load;
    sections.push(
      [
        `Propagation (PostgreSQL, two instances, ${p.backlog.toLocaleString("en")} backlog): a decision sent to instance A, to its change on a stream on B and to its row gone from a browser's queue on B, ms p50 / p95 / p99`,
        "",
        "| while | decisions | to the event on B | to the row gone on B | the mix: answered req/s, p99 ms |",
        "| --- | --- | --- | --- | --- |",
        `| nothing else | ${p.idle.n} | ${ms(p.idle, "eventMs")} | ${ms(p.idle, "rowMs")} | – |`,
        `| the mix at ${p.underLoad.rate} req/s + ${load.approvalsPerSecond} approvals/s | ${p.underLoad.n} | ${ms(p.underLoad, "eventMs")} | ${ms(p.underLoad, "rowMs")} | ${load.achievedRate}${load.rateReached ? "" : " (short)"}, ${load.p99} (load average ${p.underLoad.loadAverage[0]}) |`,
      ].join("\n"),
    );
  }
  const rate = LIVE_TARGETS.propagationRate;
  for (const [which, what] of [
    ["eventMs", "its decision.recorded change on a stream held on instance B"],
    ["rowMs", "its row gone from a real browser's queue on instance B"],
  ] as const) {
    const target = `propagation under the ${rate} req/s mix (PostgreSQL): a decision sent to instance A to ${what}, p95 < ${LIVE_TARGETS.propagationP95Ms} ms, the mix's rate reached`;
    if (!p || p.underLoad.n === 0) {
      t(
        target,
        live?.error ? `error: ${live.error}` : p ? `not measured (${p.underLoad.failures[0] ?? "no decision timed"})` : "not measured",
        false,
      );
      continue;
    }
    const side = p.underLoad;
    const failed = side.failures.length ? `, ${side.failures.length} failed` : "";
    t(
      target,
      `p50 ${side[which].p50} ms, p95 ${side[which].p95} ms, p99 ${side[which].p99} ms (${side.n} decisions${failed}; the mix at ${side.rate} req/s answered ${side.load.achievedRate}, load average ${side.loadAverage[0]})`,
      side[which].p95 < LIVE_TARGETS.propagationP95Ms && side.rate >= rate && side.load.rateReached && side.failures.length === 0,
    );
  }

  const loadTarget = `the load, replaced: p99 at ${LIVE_TARGETS.loadRate} req/s across 2 instances (PostgreSQL) with ${LIVE_TARGETS.streams.toLocaleString("en")} idle live streams held and conditional reads < ${LIVE_TARGETS.loadP99Ms} ms, the rate reached`;
  if (!liveLoad || liveLoad.error || !liveLoad.phases) {
    t(loadTarget, liveLoad?.error ? `error: ${liveLoad.error}` : "not measured", false);
    return { table: sections.join("\n\n"), targets };
  }
  const mix = liveLoad.phases.filter((phase) => phase.target === "mix");
  const share = (q?: { sent: number; notModified: number }) =>
    q ? `${q.notModified} of ${q.sent} (${q.sent ? ((100 * q.notModified) / q.sent).toFixed(1) : "0.0"}%)` : "–";
  const streams = liveLoad.liveStreams;
  sections.push(
    [
      `The load, replaced (bench/open-loop.ts --live-streams ${streams?.asked ?? 0}${liveLoad.conditional ? " --conditional" : ""}): the mix + ${liveLoad.decisionsPerSecond} approvals/s across ${liveLoad.instances} instances on PostgreSQL, ${liveLoad.backlog.toLocaleString("en")} backlog, ${streams?.opened ?? 0} idle streams held`,
      "",
      "| rate (req/s) | answered (req/s) | p50 ms | p95 ms | p99 ms | errors | GET /api/queue answered 304 | streams still open | load average |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
      ...mix.map(
        (phase) =>
          `| ${phase.rate} | ${phase.achievedRate}${phase.rateReached ? "" : " (short)"} | ${phase.latencyMs.p50} | ${phase.latencyMs.p95} | ${phase.latencyMs.p99} | ${phase.errors} of ${phase.sent} | ${share(phase.queueReads)} | ${phase.streamsOpen ?? "–"} | ${phase.loadAverage[0]} |`,
      ),
    ].join("\n"),
  );
  const at = mix.find((phase) => phase.rate === LIVE_TARGETS.loadRate);
  const held = (streams?.opened ?? 0) >= LIVE_TARGETS.streams && (at?.streamsOpen ?? 0) >= LIVE_TARGETS.streams;
  t(
    loadTarget,
    at
      ? `${at.latencyMs.p99} ms, ${at.achievedRate} req/s answered, ${at.errors} errors; GET /api/queue answered 304: ${share(at.queueReads)}; streams held ${streams?.opened ?? 0}, still open ${at.streamsOpen ?? "–"} (load average ${at.loadAverage[0]})`
      : "not measured",
    !!at && at.latencyMs.p99 < LIVE_TARGETS.loadP99Ms && at.rateReached && held && liveLoad.instances === 2 && !!liveLoad.conditional,
  );
  return { table: sections.join("\n\n"), targets };
}
