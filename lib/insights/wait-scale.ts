/**
 * The scale the insights keep waits on: bucket k holds waits of s seconds with
 * floor(ln(1 + s) / ln 1.25) = k, so each bucket is 25% wider than the one before (0–0.25 s, …,
 * about 3–4 min, …), and a percentile read from them is a range that close, never a made-up point.
 * The triggers of migration `insights` compute the same formula in SQL; bucket -1 holds decisions
 * whose wait was not recorded (the call waited before insights were recorded).
 */
const STEP = Math.log(1.25);
export const NOT_RECORDED_BUCKET = -1;

export function bucketOfWait(waitMs: number): number {
  return Math.floor(Math.log(1 + Math.max(0, waitMs) / 1000) / STEP);
}

/** The waits bucket `k` holds, in milliseconds: [fromMs, toMs). */
export function bucketRange(bucket: number): { fromMs: number; toMs: number } {
  return { fromMs: Math.max(0, (Math.exp(bucket * STEP) - 1) * 1000), toMs: (Math.exp((bucket + 1) * STEP) - 1) * 1000 };
}

export interface WaitPercentile {
  /** The range the percentile lies in (the bucket that holds it), in milliseconds. */
  fromMs: number;
  toMs: number;
}

/**
 * The nearest-rank percentile `p` (0 < p ≤ 100) of the waits counted in `buckets` (bucket → calls,
 * not-recorded left out): the bucket holding the ⌈p/100 · n⌉-th smallest wait. Null when none.
 */
export function percentileOf(buckets: Map<number, number>, p: number): WaitPercentile | null {
  const sorted = [...buckets.entries()].filter(([bucket, calls]) => bucket !== NOT_RECORDED_BUCKET && calls > 0).sort(([a], [b]) => a - b);
  const total = sorted.reduce((sum, [, calls]) => sum + calls, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const [bucket, calls] of sorted) {
    seen += calls;
    if (seen >= rank) return bucketRange(bucket);
  }
  return null;
}

export const PERCENTILES = [50, 90, 99] as const;
