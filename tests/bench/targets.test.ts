/**
 * The benchmark's target lines say what they checked: a line names the threshold it applied, is
 * met only when that threshold was, and a quick run's looser thresholds are labelled as quick.
 */
import { describe, expect, it } from "vitest";
import { CASES } from "../../bench/cases.ts";
import { auditChainTargets } from "../../bench/audit-report.ts";
import { decisionTarget, listingTargets, tokenFloorTargets, type Target } from "../../bench/targets.ts";
import { threadsReport } from "../../bench/threads.ts";
import type { Stats } from "../../bench/timing.ts";

const stats = (median: number): Stats => ({ n: 10, median, p95: median, min: median });

/** Our listing's medians: `ms(caseId, size)` for every case at both sizes, on both engines. */
function listing(sizes: number[], ms: (caseId: string, size: number) => number) {
  const engine = () =>
    Object.fromEntries(
      sizes.map((size) => [size, Object.fromEntries(CASES.map((c) => [c.id, { stats: stats(ms(c.id, size)), total: 1, runs: 1 }]))]),
    );
  return { ours: { sqlite: engine(), pg: engine() }, oursScoped: {}, bareScoped: {}, mastra: {} };
}

const QUICK = { QUICK: true, OUR_SIZES: [2_000, 10_000], CAP_MS: 10_000 };
const line = (targets: Target[], text: string) => targets.find((t) => t.target.includes(text))!;

describe("the benchmark's listing targets", () => {
  it("labels a quick run's looser latency threshold and meets it only below that threshold", () => {
    const fast = listingTargets(
      listing(QUICK.OUR_SIZES, () => 40),
      QUICK,
    );
    const slow = listingTargets(
      listing(QUICK.OUR_SIZES, () => 60),
      QUICK,
    );
    for (const name of ["SQLite", "PostgreSQL"]) {
      const target = line(fast, `slowest median < 50 ms (${name}`).target;
      expect(target).toContain("quick mode's threshold");
      expect(line(fast, `(${name}`).met).toBe(true);
      expect(line(slow, `(${name}`).met).toBe(false);
    }
    expect(line(fast, "(SQLite").target).toContain("the full run checks < 10 ms at 100k");
    expect(line(fast, "(PostgreSQL").target).toContain("the full run checks < 20 ms at 100k");
  });

  it("counts a quick run's growth only over its noise floor, and shows the worst it counted", () => {
    // 4x growth everywhere and 8x for the resource case, the only one over 5 ms at the larger size.
    const grown = listingTargets(
      listing(QUICK.OUR_SIZES, (id, size) => (size === 2_000 ? 1 : id === "resource" ? 8 : 4)),
      QUICK,
    );
    const sqlite = line(grown, "growth <= 3x for every case over 5 ms, deep page aside (sqlite; quick mode's threshold");
    expect(sqlite).toMatchObject({ met: false, value: expect.stringMatching(/^8\.00x \(worst counted; 8\.00x over every case\)$/) });

    const quiet = listingTargets(
      listing(QUICK.OUR_SIZES, (_id, size) => (size === 2_000 ? 1 : 4)),
      QUICK,
    );
    expect(line(quiet, "growth <= 3x").met).toBe(true);
    expect(line(quiet, "growth <= 3x").value).toBe("no case over 5 ms (4.00x over every case, not counted)");
  });

  it("checks the full run's own thresholds, unlabelled", () => {
    const full = listingTargets(
      listing([10_000, 100_000], (_id, size) => (size === 10_000 ? 8 : 12)),
      {
        QUICK: false,
        OUR_SIZES: [10_000, 100_000],
        CAP_MS: 60_000,
      },
    );
    expect(line(full, "ours at 100k, slowest case median < 10 ms (SQLite)")).toMatchObject({ value: "12.00 ms", met: false });
    expect(line(full, "ours at 100k, slowest case median < 20 ms (PostgreSQL)")).toMatchObject({ value: "12.00 ms", met: true });
    expect(line(full, "10k → 100k < 2x for every case (SQLite)")).toMatchObject({ value: "1.50x", met: true });
    expect(full.some((t) => t.target.includes("quick"))).toBe(false);
  });
});

describe("the benchmark's page-of-threads targets", () => {
  it("labels a quick run's 50 ms threshold as quick and names what the full run checks", () => {
    const { targets } = threadsReport({}, [2_000, 10_000], true);
    expect(targets.map((t) => t.target)).toEqual([
      "page of threads at 10,000, slowest case median < 50 ms (SQLite; quick mode's threshold, the full run checks < 10 ms at 100k)",
      "page of threads at 10,000, slowest case median < 50 ms (PostgreSQL; quick mode's threshold, the full run checks < 20 ms at 100k)",
    ]);
    expect(threadsReport({}, [10_000, 100_000], false).targets.map((t) => t.target)).toContain(
      "page of threads at 100,000, slowest case median < 10 ms (SQLite)",
    );
  });
});

describe("the benchmark's approve-overhead target", () => {
  const measured = (ratio: number) => ({ ratio, decide: stats(10 * ratio), bare: stats(10) });

  it("checks 1.3x in a full run, unlabelled, and is met only below it", () => {
    expect(decisionTarget(measured(1.29), false)).toEqual({
      target: "approve overhead over bare Mastra < 1.3x",
      value: "1.29x (12.9 vs 10.0 ms)",
      met: true,
    });
    expect(decisionTarget(measured(1.3), false).met).toBe(false);
  });

  it("labels a quick run's 2x as quick mode's threshold, names the full run's, and is met only below 2x", () => {
    const quick = decisionTarget(measured(1.66), true);
    expect(quick).toMatchObject({
      target: "approve overhead over bare Mastra < 2x (quick mode's threshold; the full run checks 1.3x)",
      met: true,
    });
    expect(decisionTarget(measured(2.01), true).met).toBe(false);
  });
});

describe("the audit chain's throughput target", () => {
  const chain = (ratio: number) => ({ throughput_pg: { ratio, chained: 90 * ratio, unchained: 90, concurrency: 4 } });

  it("checks 0.9 in a full run, unlabelled, and is met only from 0.9", () => {
    const [full] = auditChainTargets(chain(0.9), false);
    expect(full).toMatchObject({ met: true });
    expect(full!.target).not.toContain("quick");
    expect(auditChainTargets(chain(0.89), false)[0]!.met).toBe(false);
  });

  it("labels a quick run's looser 0.6 as quick mode's threshold and names the full run's", () => {
    const [quick] = auditChainTargets(chain(0.65), true);
    expect(quick!.target).toContain("ratio >= 0.6 (quick mode's threshold; the full run checks 0.9)");
    expect(quick!.met).toBe(true);
    expect(auditChainTargets(chain(0.59), true)[0]!.met).toBe(false);
  });
});

describe("the token check's target", () => {
  const side = { requestsPerSecond: 100, latencyMs: { p50: 1, p99: 2 } };
  const floor = (ratio: number) => ({
    db: "sqlite",
    seconds: 3,
    rounds: 4,
    connections: 16,
    session: side,
    token: side,
    ratio: 1,
    sequential: { sessionMs: 2, tokenMs: 2 * ratio, ratio },
    inProcess: { sessionMs: 1, tokenMs: 0.5, ratio: 0.5 },
  });

  it("is measured only when the alternating figures are there, and says so otherwise", () => {
    const { sequential: _, ...withoutSequential } = floor(1);
    expect(tokenFloorTargets({ sqlite: withoutSequential as never }, false).map((t) => [t.value, t.met])).toEqual([
      ["not measured", false],
      ["not measured", false],
    ]);
  });

  it("checks 1.1x in a full run and 1.3x, labelled, in a quick one", () => {
    expect(tokenFloorTargets({ sqlite: floor(1.1) }, false).every((t) => t.met)).toBe(true);
    expect(tokenFloorTargets({ sqlite: floor(1.11) }, false)[0]!.met).toBe(false);
    const quick = tokenFloorTargets({ postgres: floor(1.25) }, true);
    expect(quick[0]!.target).toContain("(PostgreSQL; quick mode's threshold, the full run checks 1.1x)");
    expect(quick.every((t) => t.met)).toBe(true);
    expect(tokenFloorTargets({ postgres: floor(1.31) }, true)[0]!.met).toBe(false);
  });
});
