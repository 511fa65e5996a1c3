/**
 * The insights' period in the viewer's time zone: whole local days, from the first day's midnight
 * to the end of the last (or now, for a period that ends today). Pure; browser-safe.
 */

/** The offset of `zone` from UTC at `at`, in milliseconds (what the zone's wall clock is ahead by). */
export function zoneOffsetMs(zone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const wall = Date.UTC(value("year"), value("month") - 1, value("day"), value("hour"), value("minute"), value("second"));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The local date (YYYY-MM-DD) of `at` in `zone`. */
export function localDate(at: Date, zone: string): string {
  return new Date(at.getTime() + zoneOffsetMs(zone, at)).toISOString().slice(0, 10);
}

/** The instant a local date starts in `zone` (its midnight; the first instant of it on a day that skips midnight). */
export function startOfLocalDate(date: string, zone: string): Date {
  const wallMidnight = Date.parse(`${date}T00:00:00Z`);
  // Two passes: the offset at the guess can differ from the offset at the answer around a change.
  let guess = wallMidnight - zoneOffsetMs(zone, new Date(wallMidnight));
  guess = wallMidnight - zoneOffsetMs(zone, new Date(guess));
  return new Date(guess);
}

/** The local date `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export interface Period {
  /** The first and last local dates, inclusive. */
  firstDay: string;
  lastDay: string;
  /** [from, to): the instants they span (to is never later than now). */
  from: Date;
  to: Date;
  timeZone: string;
}

export function periodOf(firstDay: string, lastDay: string, timeZone: string, now: Date): Period {
  const end = startOfLocalDate(addDays(lastDay, 1), timeZone);
  return { firstDay, lastDay, from: startOfLocalDate(firstDay, timeZone), to: end < now ? end : now, timeZone };
}

/** The last `days` local days, today included. */
export function lastDays(days: number, timeZone: string, now: Date): Period {
  const today = localDate(now, timeZone);
  return periodOf(addDays(today, -(days - 1)), today, timeZone, now);
}

/** Every local date of the period, in order. */
export function datesOf(period: Pick<Period, "firstDay" | "lastDay">): string[] {
  const dates: string[] = [];
  for (let date = period.firstDay; date <= period.lastDay; date = addDays(date, 1)) dates.push(date);
  return dates;
}
