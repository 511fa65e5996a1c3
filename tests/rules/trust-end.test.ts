/**
 * When a trusted rule ends (lib/rules/trust-end.ts), on the runtime's own time zone data: 15 minutes
 * and an hour from the moment given; "today" at the next midnight in the reviewer's zone, including
 * a decision at 23:59 there, zones with odd offsets, and days a daylight-saving switch shortens,
 * lengthens or starts at 01:00 (midnight skipped).
 */
import { describe, expect, it } from "vitest";
import { nextMidnight, trustEnd } from "../../lib/rules/trust-end.ts";

/** The date a clock in `zone` shows at `instant`, as YYYY-MM-DD. */
const dayIn = (instant: Date, zone: string) => instant.toLocaleDateString("sv-SE", { timeZone: zone });
const clockIn = (instant: Date, zone: string) => instant.toLocaleTimeString("sv-SE", { timeZone: zone });

describe("the end of a trusted rule", () => {
  it("15 minutes and an hour are counted from the moment given", () => {
    const now = new Date("2026-12-06T23:59:30Z");
    expect(trustEnd("15m", now, "Asia/Seoul").toISOString()).toBe("2026-12-07T00:14:30.000Z");
    expect(trustEnd("1h", now, "Asia/Seoul").toISOString()).toBe("2026-12-07T00:59:30.000Z");
  });

  it("today ends at the next midnight in the reviewer's zone, also a minute before it", () => {
    // 23:59 in Seoul is 14:59 UTC: the day ends a minute later, not at UTC's midnight.
    expect(trustEnd("today", new Date("2026-12-06T14:59:00Z"), "Asia/Seoul").toISOString()).toBe("2026-12-06T15:00:00.000Z");
    // At midnight exactly, today is the new day: it ends 24 hours later.
    expect(nextMidnight(new Date("2026-12-06T15:00:00Z"), "Asia/Seoul").toISOString()).toBe("2026-12-07T15:00:00.000Z");
    expect(nextMidnight(new Date("2026-12-31T23:59:59Z"), "UTC").toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(nextMidnight(new Date("2026-12-06T10:00:00Z"), "Asia/Kathmandu").toISOString()).toBe("2026-12-06T18:15:00.000Z");
    expect(nextMidnight(new Date("2026-12-06T03:00:00Z"), "America/Los_Angeles").toISOString()).toBe("2026-12-06T08:00:00.000Z");
  });

  it("across daylight-saving switches: the first instant of the next day, wherever the clocks jump", () => {
    // New York springs forward at 02:00 and falls back at 02:00: those days are 23 and 25 hours long.
    expect(nextMidnight(new Date("2026-03-08T06:00:00Z"), "America/New_York").toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(nextMidnight(new Date("2026-11-01T05:00:00Z"), "America/New_York").toISOString()).toBe("2026-11-02T05:00:00.000Z");
    // Santiago springs forward at midnight: 2026-09-06 starts at 01:00 (-03), 04:00 UTC.
    const skipped = nextMidnight(new Date("2026-09-05T20:00:00Z"), "America/Santiago");
    expect([dayIn(skipped, "America/Santiago"), dayIn(new Date(skipped.getTime() - 1000), "America/Santiago")]).toEqual([
      "2026-09-06",
      "2026-09-05",
    ]);
    for (const zone of [
      "Europe/Berlin",
      "Australia/Lord_Howe",
      "Pacific/Chatham",
      "America/St_Johns",
      "Asia/Tehran",
      "Pacific/Kiritimati",
    ]) {
      for (let day = 0; day < 366; day += 7) {
        const now = new Date(Date.UTC(2026, 0, 1) + day * 86_400_000 + 13 * 3_600_000);
        const end = nextMidnight(now, zone);
        const label = `${zone} from ${now.toISOString()}: ${end.toISOString()}`;
        expect(end.getTime(), label).toBeGreaterThan(now.getTime());
        expect(dayIn(new Date(end.getTime() - 1000), zone), label).toBe(dayIn(now, zone));
        expect(dayIn(end, zone), label).not.toBe(dayIn(now, zone));
        expect(["00:00:00", "01:00:00"], label).toContain(clockIn(end, zone));
      }
    }
  });
});
