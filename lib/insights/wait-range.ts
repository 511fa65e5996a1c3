/**
 * A time to decision as /insights shows it: the range its percentile lies in (wait-scale.ts), in
 * the largest unit its lower end reaches, to two significant digits rounded outwards, so the range
 * shown always holds the one computed ("3–3.8 min", "1.4–2.1 s"), in the reader's language
 * (Intl.NumberFormat's formatRange: "3~3.8분"). The only place a wait range becomes text. Pure.
 */
import type { WaitPercentile } from "./wait-scale.ts";

const UNITS = [
  { unit: "second", ms: 1_000 },
  { unit: "minute", ms: 60_000 },
  { unit: "hour", ms: 3_600_000 },
  { unit: "day", ms: 86_400_000 },
] as const;

/** `value` to two significant digits, rounded down or up. */
function round(value: number, direction: "down" | "up"): number {
  if (value <= 0) return 0;
  const step = 10 ** (Math.floor(Math.log10(value)) - 1);
  // The division is rounded first so that a value already on a step (3.8 / 0.1 = 37.99…) stays on it.
  const steps = Number((value / step).toPrecision(12));
  return (direction === "down" ? Math.floor(steps) : Math.ceil(steps)) * step;
}

export function formatWaitRange(range: WaitPercentile, locale: string): string {
  const { unit, ms } = UNITS.findLast((candidate) => range.fromMs >= candidate.ms) ?? UNITS[0];
  const format = new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "short", maximumSignificantDigits: 2 });
  return format.formatRange(round(range.fromMs / ms, "down"), round(range.toMs / ms, "up"));
}
