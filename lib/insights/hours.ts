/**
 * How a period of local days is read from the UTC rollups (lib/insights/facts.ts): whole UTC days
 * from insight_days, everything else from insight_hours, hour by hour. A local day off UTC is two
 * pieces of two UTC days; each UTC day inside the period is read whole, and only its smaller pieces
 * hour by hour (its largest piece is the day less those), so a month costs a few thousand rows
 * whatever the zone. Hours are counted since 1970-01-01 UTC; a zone whose midnight is not on the
 * hour (India, Nepal) has its days start at the hour before. Pure.
 */
import { addDays, startOfLocalDate, type Period } from "./period.ts";

const HOUR_MS = 3_600_000;

export interface DayPlan {
  /** The period's hours [fromHour, toHour). */
  fromHour: number;
  toHour: number;
  /** UTC days wholly inside the period, each read from insight_days. */
  wholeDays: number[];
  /** Hours of the period outside those days (its two edges), read from insight_hours. */
  edgeHours: number[];
  /** Hours inside whole days that belong to another local day than the day's largest piece. */
  splitHours: number[];
  /** The local date of every hour of the period, and the local date a whole day's remainder counts on. */
  dateOfHour: (hour: number) => string;
  remainderDateOf: Map<number, string>;
}

export function planDays(period: Period): DayPlan {
  const fromHour = Math.floor(period.from.getTime() / HOUR_MS);
  const toHour = Math.ceil(period.to.getTime() / HOUR_MS);
  // The first hour of each local day, in order; hours before the next one belong to it.
  const starts: { hour: number; date: string }[] = [];
  for (let date = period.firstDay; date <= period.lastDay; date = addDays(date, 1)) {
    starts.push({ hour: Math.max(fromHour, Math.floor(startOfLocalDate(date, period.timeZone).getTime() / HOUR_MS)), date });
  }
  const dateOfHour = (hour: number) => {
    let found = starts[0]!.date;
    for (const start of starts) if (start.hour <= hour) found = start.date;
    return found;
  };
  const wholeDays: number[] = [];
  const edgeHours: number[] = [];
  const splitHours: number[] = [];
  const remainderDateOf = new Map<number, string>();
  for (let day = Math.floor(fromHour / 24); day * 24 < toHour; day++) {
    const hours = Array.from({ length: 24 }, (_, index) => day * 24 + index);
    if (hours[0]! < fromHour || hours[23]! >= toHour) {
      edgeHours.push(...hours.filter((hour) => hour >= fromHour && hour < toHour));
      continue;
    }
    wholeDays.push(day);
    const pieces = new Map<string, number[]>();
    for (const hour of hours) pieces.set(dateOfHour(hour), [...(pieces.get(dateOfHour(hour)) ?? []), hour]);
    const largest = [...pieces.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
    remainderDateOf.set(day, largest[0]);
    for (const [date, piece] of pieces) if (date !== largest[0]) splitHours.push(...piece);
  }
  return { fromHour, toHour, wholeDays, edgeHours, splitHours, dateOfHour, remainderDateOf };
}
