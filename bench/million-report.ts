/**
 * The 1M table (bench/million.ts) and its target lines, for bench/results-million.md alone
 * (`npm run bench:million`) and for bench/results.md when `npm run bench` runs it as a child.
 * Targets (issue 27): at the largest size every contract listing case and every page of threads
 * has a median under 20 ms, each grows under 2x from the size before it, and a snapshot write costs
 * no more than 1.2x what it costs at the smallest size.
 */
import { CASES } from "./cases.ts";
import { THREAD_CASES, type ThreadPageResult } from "./threads.ts";
import type { Stats } from "./timing.ts";

export interface MillionSizeResult {
  listing: Record<string, { stats: Stats; total: number }>;
  threads: Record<string, ThreadPageResult>;
  writes: { insert: Stats; update: Stats };
  tables: Array<{ table: string; table_bytes: string; index_bytes: string; rows: string }>;
  buildSeconds?: number;
}

export interface MillionResults {
  at: string;
  seconds: number;
  sizes: number[];
  results: Record<number, MillionSizeResult>;
}

export const MILLION_TARGETS = { medianMs: 20, growth: 2, writeGrowth: 1.2 };

export function millionReport({ sizes: all, results: by }: MillionResults): {
  table: string;
  targets: Array<{ target: string; value: string; met: boolean }>;
} {
  const r = (size: number) => by[size]!;
  // One size alone (`--sizes 1000000`): its growth is against itself (1.00x); the table still says what it measured.
  const [smallest, small, large] = [all[0]!, all.at(-2) ?? all.at(-1)!, all.at(-1)!];
  const at = (size: number) => size.toLocaleString("en");
  const cell = (s: Stats) => `${s.median.toFixed(2)} / ${s.p95.toFixed(2)}`;
  const mb = (bytes: string) => `${(Number(bytes) / 1e6).toFixed(1)} MB`;
  const rows = [
    ...CASES.map((c) => ({ label: c.label, of: (s: number) => r(s).listing[c.id]!.stats, total: `${at(r(large).listing[c.id]!.total)}` })),
    ...THREAD_CASES.map((c) => ({
      label: `threads: ${c.label}`,
      of: (s: number) => r(s).threads[c.id]!.stats,
      total: `${at(r(large).threads[c.id]!.callTotal)} calls`,
    })),
  ].map((row) => ({ ...row, growth: row.of(large).median / row.of(small).median }));
  const writes = (["insert", "update"] as const).map((kind) => ({
    kind,
    of: (s: number) => r(s).writes[kind],
    growth: r(large).writes[kind].median / r(smallest).writes[kind].median,
  }));
  const table = [
    `| case | ${all.map(at).join(" | ")} | total at ${at(large)} | growth ${at(small)} → ${at(large)} |`,
    `| --- |${" --- |".repeat(all.length + 2)}`,
    ...rows.map((row) => `| ${row.label} | ${all.map((s) => cell(row.of(s))).join(" | ")} | ${row.total} | ${row.growth.toFixed(2)}x |`),
    ...writes.map(
      (w) => `| snapshot ${w.kind} | ${all.map((s) => cell(w.of(s))).join(" | ")} | | ${w.growth.toFixed(2)}x of ${at(smallest)} |`,
    ),
    "",
    `Tables at ${at(large)}${r(large).buildSeconds ? ` (generated in ${Math.round(r(large).buildSeconds!)} s)` : ""}:`,
    "",
    "| table | rows (estimate) | table | indexes |",
    "| --- | --- | --- | --- |",
    ...r(large).tables.map((t) => `| ${t.table} | ${Number(t.rows).toLocaleString("en")} | ${mb(t.table_bytes)} | ${mb(t.index_bytes)} |`),
  ].join("\n");

  const slowest = rows.reduce((worst, row) => (row.of(large).median > worst.of(large).median ? row : worst));
  const over = rows.filter((row) => row.of(large).median >= MILLION_TARGETS.medianMs).map((row) => row.label);
  const fastest = rows.reduce((worst, row) => (row.growth > worst.growth ? row : worst));
  const grown = rows.filter((row) => !(row.growth < MILLION_TARGETS.growth)).map((row) => row.label);
  const worstWrite = writes.reduce((worst, w) => (w.growth > worst.growth ? w : worst));
  const targets = [
    {
      target: `PostgreSQL at ${at(large)}: every listing and page-of-threads case median < ${MILLION_TARGETS.medianMs} ms, exact totals`,
      value: `slowest ${slowest.of(large).median.toFixed(2)} ms (${slowest.label})${over.length ? `; over: ${over.join(", ")}` : ""}`,
      met: over.length === 0,
    },
    {
      target: `PostgreSQL ${at(small)} → ${at(large)}: every case grows < ${MILLION_TARGETS.growth}x`,
      value: `worst ${fastest.growth.toFixed(2)}x (${fastest.label})${grown.length ? `; ${grown.length} of ${rows.length} cases at or over` : ""}`,
      met: grown.length === 0,
    },
    {
      target: `PostgreSQL snapshot writes at ${at(large)} <= ${MILLION_TARGETS.writeGrowth}x their cost at ${at(smallest)} (median)`,
      value: writes
        .map((w) => `${w.kind} ${w.growth.toFixed(2)}x (${w.of(large).median.toFixed(2)} vs ${w.of(smallest).median.toFixed(2)} ms)`)
        .join(", "),
      met: worstWrite.growth <= MILLION_TARGETS.writeGrowth,
    },
  ];
  return { table, targets };
}
