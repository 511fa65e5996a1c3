/** The audit chain's target lines (bench/audit-chain.ts): throughput with the chain per database, and verify over many rows. */
import type { Target } from "./targets.ts";

/** Chained throughput over the trigger off: within 10%; quick mode's few decisions on a busy machine get a looser floor. */
export const CHAIN_THROUGHPUT = { full: 0.9, quick: 0.6 };

export function auditChainTargets(auditChain: unknown, quick: boolean): Target[] {
  const targets: Target[] = [];
  const t = (target: string, value: string, met: boolean) => targets.push({ target, value, met });
  const audit = auditChain as
    | (Partial<
        Record<"throughput_sqlite" | "throughput_pg", { ratio: number; chained: number; unchained: number; concurrency: number }>
      > & {
        verify?: { rows: number; ok: boolean; seconds: number; rowsPerSecond: number; heapCapMb: number; peakRssMb: number };
      })
    | undefined;
  for (const store of ["sqlite", "pg"] as const) {
    const side = audit?.[`throughput_${store}`];
    const floor = quick ? CHAIN_THROUGHPUT.quick : CHAIN_THROUGHPUT.full;
    if (side)
      t(
        `decision throughput with the audit log's hash chain (${store}) within 10% of the trigger off (median of alternating rounds)${quick ? `: ratio >= ${floor} (quick mode's threshold; the full run checks ${CHAIN_THROUGHPUT.full})` : ""}`,
        `${side.ratio.toFixed(3)} (${side.chained.toFixed(1)} vs ${side.unchained.toFixed(1)} decisions/s, ${side.concurrency} at a time)`,
        side.ratio >= floor,
      );
  }
  if (audit?.verify)
    t(
      `audit:verify over ${audit.verify.rows.toLocaleString("en")} rows (PostgreSQL) < 60 s with the heap capped at ${audit.verify.heapCapMb} MB`,
      `${audit.verify.seconds.toFixed(1)} s (${audit.verify.rowsPerSecond.toLocaleString("en")} rows/s, peak RSS ${audit.verify.peakRssMb} MB)`,
      audit.verify.ok && audit.verify.seconds < 60,
    );
  return targets;
}
