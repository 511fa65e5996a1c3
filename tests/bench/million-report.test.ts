/**
 * The 1M table's target lines (bench/million-report.ts) say what they checked and are met only when
 * it held: every case under 20 ms at the largest size, every case growing under 2x from the size
 * before it, snapshot writes at most 1.2x their cost at the smallest size.
 */
import { describe, expect, it } from "vitest";
import { CASES } from "../../bench/cases.ts";
import { millionReport, type MillionResults } from "../../bench/million-report.ts";
import { THREAD_CASES } from "../../bench/threads.ts";
import type { Stats } from "../../bench/timing.ts";

const stats = (median: number): Stats => ({ n: 10, median, p95: median * 1.5, min: median });
const SIZES = [10_000, 100_000, 1_000_000];

/** Results where every case takes `ms(caseId, size)` and a write `write(size)`. */
function results(ms: (caseId: string, size: number) => number, write: (size: number) => number = () => 1): MillionResults {
  return {
    at: "2026-12-04T00:00:00.000Z",
    seconds: 1,
    sizes: SIZES,
    results: Object.fromEntries(
      SIZES.map((size) => [
        size,
        {
          listing: Object.fromEntries(CASES.map((c) => [c.id, { stats: stats(ms(c.id, size)), total: size }])),
          threads: Object.fromEntries(
            THREAD_CASES.map((c) => [
              c.id,
              { stats: stats(ms(`threads:${c.id}`, size)), threadTotal: size / 50, callTotal: size, shownCalls: 200, page: 0 },
            ]),
          ),
          writes: { insert: stats(write(size)), update: stats(write(size)) },
          tables: [{ table: "workflow_snapshots", table_bytes: "1000000", index_bytes: "2000000", rows: String(size) }],
        },
      ]),
    ),
  };
}
const line = (report: ReturnType<typeof millionReport>, text: string) => report.targets.find((t) => t.target.includes(text))!;

describe("the 1M target lines", () => {
  it("are met when every case is under 20 ms, grows under 2x and writes stay within 1.2x", () => {
    const report = millionReport(results((_id, size) => (size === 1_000_000 ? 3 : 2)));
    expect(report.targets.map((t) => t.met)).toEqual([true, true, true]);
    expect(line(report, "median < 20 ms").target).toBe(
      "PostgreSQL at 1,000,000: every listing and page-of-threads case median < 20 ms, exact totals",
    );
    expect(line(report, "grows < 2x").target).toBe("PostgreSQL 100,000 → 1,000,000: every case grows < 2x");
    expect(report.table).toContain("| no filter | 2.00 / 3.00 | 2.00 / 3.00 | 3.00 / 4.50 | 1,000,000 | 1.50x |");
  });

  it("name each case over the line, and the worst", () => {
    const report = millionReport(
      results((id, size) => (size < 1_000_000 ? 2 : id === "threads:risk-high" ? 25 : id === "threads:day" ? 20 : 3)),
    );
    const latency = line(report, "median < 20 ms");
    expect(latency.met).toBe(false);
    expect(latency.value).toBe(
      "slowest 25.00 ms (threads: risk=high (1 call in 8)); over: threads: one-day window, threads: risk=high (1 call in 8)",
    );
    const growth = line(report, "grows < 2x");
    expect(growth).toMatchObject({
      met: false,
      value: "worst 12.50x (threads: risk=high (1 call in 8)); 2 of " + (CASES.length + THREAD_CASES.length) + " cases at or over",
    });
  });

  it("compare writes at the largest size with the smallest, not the middle one", () => {
    const report = millionReport(
      results(
        () => 1,
        (size) => (size === 10_000 ? 1 : size === 100_000 ? 1.25 : 1.3),
      ),
    );
    expect(line(report, "snapshot writes").met).toBe(false);
    expect(line(report, "snapshot writes").value).toBe("insert 1.30x (1.30 vs 1.00 ms), update 1.30x (1.30 vs 1.00 ms)");
    expect(line(report, "snapshot writes").target).toBe("PostgreSQL snapshot writes at 1,000,000 <= 1.2x their cost at 10,000 (median)");
  });
});
