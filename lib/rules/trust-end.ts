/**
 * When a trusted rule ends (lib/rules/trust.ts): 15 minutes or an hour from `now`, or "today",
 * the next midnight in the reviewer's time zone. Pure and clock-free (`now` is given), on the
 * runtime's own time zone data (Intl), so a test can ask about any moment in any zone.
 */
import type { TrustDuration } from "./trust-fields.ts";

const MINUTE_MS = 60_000;

export function trustEnd(duration: TrustDuration, now: Date, timeZone: string): Date {
  if (duration === "15m") return new Date(now.getTime() + 15 * MINUTE_MS);
  if (duration === "1h") return new Date(now.getTime() + 60 * MINUTE_MS);
  return nextMidnight(now, timeZone);
}

/**
 * The first instant of the day after `now`'s day in `timeZone`. Midnight's offset is looked up at
 * two guesses, since a daylight-saving switch may fall between; where a switch skips midnight
 * (clocks go from 23:59:59 to 01:00), the day ends when the next one starts, at that 01:00.
 */
export function nextMidnight(now: Date, timeZone: string): Date {
  const today = wallClock(now.getTime(), timeZone);
  // The next day's midnight as if the zone were UTC; Date.UTC carries the 31st over into the next month.
  const midnight = Date.UTC(today.year, today.month - 1, today.day + 1);
  const first = midnight - offsetAt(midnight, timeZone);
  const second = midnight - offsetAt(first, timeZone);
  const tomorrow = dayKey(wallClock(midnight, "UTC"));
  const candidates = [first, second].filter((instant) => dayKey(wallClock(instant, timeZone)) === tomorrow);
  return new Date(candidates.length > 0 ? Math.min(...candidates) : Math.max(first, second));
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The date and time a clock in `timeZone` shows at `instant` (ms since the epoch). */
function wallClock(instant: number, timeZone: string): WallClock {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** How far `timeZone`'s clock is ahead of UTC at `instant`, in ms (whole seconds). */
function offsetAt(instant: number, timeZone: string): number {
  const clock = wallClock(instant, timeZone);
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

const dayKey = (clock: WallClock) => `${clock.year}-${clock.month}-${clock.day}`;
