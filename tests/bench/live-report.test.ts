/**
 * The live queue's target lines (bench/live-report.ts) say what they checked and are met only when
 * it held: idle streams under 5% of a core with 1,000 open, propagation p95 under 500 ms under the
 * 50 req/s mix with the rate reached, and the load replaced under 500 ms p99 at 100 req/s across two
 * instances with 1,000 streams held. A figure that is missing is "not measured" (or the error), never met.
 */
import { describe, expect, it } from "vitest";
import type { IdleCost } from "../../bench/live-idle.ts";
import type { PropagationSide } from "../../bench/live-propagation.ts";
import { liveReport, type LiveResult } from "../../bench/live-report.ts";
import { loadReport, type OpenLoopResult } from "../../bench/load-report.ts";
import type { Target } from "../../bench/targets.ts";

const spread = (ms: number) => ({ n: 30, p50: ms / 2, p95: ms, p99: ms * 1.2, max: ms * 1.5 });
const side = (eventP95: number, rowP95: number, failures: string[] = []): PropagationSide => ({
  n: 30,
  eventMs: spread(eventP95),
  rowMs: spread(rowP95),
  failures,
});
const idle = (label: string, idleCpu: number, opened = 1000): IdleCost => ({
  label,
  opened,
  idleCpu,
  perStreamKiB: 150,
  pollCpu: 0.2,
  pollCpuScaled: 2,
  reads: 333,
});

function live({ eventP95 = 40, rowP95 = 200, rate = 50, rateReached = true, idleCpu = 0.02, opened = 1000 } = {}): LiveResult {
  return {
    streams: 1000,
    pollers: 100,
    seconds: 10,
    idle: [idle("SQLite, one instance", idleCpu, opened), idle("PostgreSQL, instance B of two", idleCpu, opened)],
    propagation: {
      backlog: 100_000,
      idle: side(20, 90),
      underLoad: {
        ...side(eventP95, rowP95),
        rate,
        loadSeconds: 120,
        load: { achievedRate: rateReached ? rate : rate / 2, rateReached, p50: 20, p99: 300, errors: 0, sent: 6240, approvalsPerSecond: 2 },
        loadAverage: [3.1, 2, 1],
      },
    },
    loadAverageAtStart: [1, 1, 1],
    loadAverageAtEnd: [3, 2, 1],
  };
}

const phase = (rate: number, p99: number, { rateReached = true, streamsOpen = 1000 } = {}): OpenLoopResult["phases"][number] => ({
  target: "mix",
  rate,
  seconds: 20,
  sent: rate * 20 + 40,
  achievedRate: rateReached ? rate : rate / 2,
  rateReached,
  errors: 0,
  errorRate: 0,
  readErrorRate: 0,
  decisions: { sent: 40, approved: 40 },
  sendLagMs: spread(2),
  latencyMs: { n: rate * 20, p50: p99 / 4, p95: p99 / 2, p99, max: p99 * 2 },
  loadAverage: [4, 3, 2],
  drainSeconds: 0,
  queueReads: { sent: rate * 9, withEtag: rate * 6, notModified: rate },
  streamsOpen,
});

function liveLoad({ p99 = 300, rateReached = true, opened = 1000, streamsOpen = 1000, instances = 2 } = {}): OpenLoopResult {
  return {
    db: "postgres",
    instances,
    backlog: 100_000,
    quick: false,
    decisionsPerSecond: 2,
    loadAverageAtStart: [1, 1, 1],
    phases: [phase(50, 100), phase(100, p99, { rateReached, streamsOpen }), phase(200, 2300, { rateReached: false })],
    liveStreams: { asked: 1000, opened, refused: opened < 1000 ? { "429": 1000 - opened } : {} },
    conditional: true,
  };
}

const line = (targets: Target[], text: string) => {
  const found = targets.filter((t) => t.target.includes(text));
  expect(found, text).toHaveLength(1);
  return found[0]!;
};
const EVENT = "decision.recorded change on a stream held on instance B";
const ROW = "row gone from a real browser's queue on instance B";
const LOAD = "the load, replaced";

describe("the live queue's target lines", () => {
  it("are all met when every figure is inside its target, and say what they measured", () => {
    const { targets, table } = liveReport(live(), liveLoad());
    expect(targets).toHaveLength(5);
    expect(targets.every((t) => t.met)).toBe(true);
    expect(line(targets, EVENT).target).toContain("under the 50 req/s mix");
    expect(line(targets, EVENT).target).toContain("p95 < 500 ms");
    expect(line(targets, EVENT).value).toContain("p95 40 ms");
    expect(line(targets, ROW).value).toContain("p95 200 ms");
    expect(line(targets, LOAD).target).toContain("p99 at 100 req/s across 2 instances");
    expect(line(targets, LOAD).value).toMatch(
      /^300 ms, 100 req\/s answered, 0 errors; GET \/api\/queue answered 304: 100 of 900 \(11\.1%\)/,
    );
    expect(table).toContain("| 100 | 100 | 75 | 150 | 300 | 0 of 2040 | 100 of 900 (11.1%) | 1000 | 4 |");
    expect(table).toContain("| nothing else | 30 |");
  });

  it("is not met above 500 ms at p95, each measure on its own", () => {
    const slowRow = liveReport(live({ rowP95: 650 }), liveLoad()).targets;
    expect(line(slowRow, EVENT).met).toBe(true);
    expect(line(slowRow, ROW)).toMatchObject({ met: false, value: expect.stringContaining("p95 650 ms") });
    const slowEvent = liveReport(live({ eventP95: 500 }), liveLoad()).targets;
    expect(line(slowEvent, EVENT).met).toBe(false);
  });

  it("does not count propagation measured under a lighter load, or with the mix short of its rate", () => {
    const lighter = liveReport(live({ rate: 20 }), liveLoad()).targets;
    expect(line(lighter, EVENT)).toMatchObject({ met: false, value: expect.stringContaining("the mix at 20 req/s") });
    const short = liveReport(live({ rateReached: false }), liveLoad()).targets;
    expect(line(short, ROW).met).toBe(false);
  });

  it("does not count a failed decision as fast", () => {
    const result = live();
    result.propagation!.underLoad.failures = ["run-1: the row was still on the page after 30 s"];
    expect(line(liveReport(result, liveLoad()).targets, ROW)).toMatchObject({ met: false, value: expect.stringContaining("1 failed") });
  });

  it("reports each missing figure as not measured, never met", () => {
    const { targets, table } = liveReport(undefined, undefined);
    expect(targets).toHaveLength(5);
    for (const target of targets) expect(target).toMatchObject({ value: "not measured", met: false });
    expect(table).toBe("");
    const noPropagation = { ...live(), propagation: undefined };
    expect(line(liveReport(noPropagation, liveLoad()).targets, EVENT)).toMatchObject({ value: "not measured", met: false });
  });

  it("names a run's error instead of a figure", () => {
    const failed: LiveResult = { ...live(), idle: [], propagation: undefined, error: "propagation: no production build" };
    const { targets } = liveReport(failed, { error: "exit 1" } as unknown as OpenLoopResult);
    for (const target of targets) expect(target.met).toBe(false);
    expect(line(targets, "SQLite: 1,000 idle live streams").value).toBe("error: propagation: no production build");
    expect(line(targets, LOAD).value).toBe("error: exit 1");
  });

  it("needs 1,000 streams: fewer open idle, or fewer held through the load, is not met", () => {
    const few = liveReport(live({ opened: 50 }), liveLoad()).targets;
    expect(line(few, "PostgreSQL: 1,000 idle live streams use < 5% of a core")).toMatchObject({ met: false });
    expect(line(liveReport(live(), liveLoad({ opened: 900 })).targets, LOAD).met).toBe(false);
    expect(line(liveReport(live(), liveLoad({ streamsOpen: 990 })).targets, LOAD).met).toBe(false);
  });

  it("checks the load at 100 req/s across two instances, the rate reached", () => {
    expect(line(liveReport(live(), liveLoad({ p99: 500 })).targets, LOAD).met).toBe(false);
    expect(line(liveReport(live(), liveLoad({ rateReached: false })).targets, LOAD).met).toBe(false);
    expect(line(liveReport(live(), liveLoad({ instances: 1 })).targets, LOAD).met).toBe(false);
    const without100 = liveLoad();
    without100.phases = without100.phases.filter((p) => p.rate !== 100);
    expect(line(liveReport(live(), without100).targets, LOAD)).toMatchObject({ value: "not measured", met: false });
  });

  it("idle streams over 5% of a core are not met", () => {
    expect(line(liveReport(live({ idleCpu: 0.06 }), liveLoad()).targets, "SQLite: 1,000 idle").met).toBe(false);
  });
});

describe("the open-loop report without saturation", () => {
  it("keeps its latency line and reports saturation as not measured", () => {
    const { targets } = loadReport({ postgres: { ...liveLoad(), saturation: undefined } }, false);
    expect(line(targets, "p99 at 100 req/s across 2 instances (PostgreSQL)")).toMatchObject({ met: true });
    expect(line(targets, "saturation of one instance")).toMatchObject({ value: "not measured", met: false });
  });
});
