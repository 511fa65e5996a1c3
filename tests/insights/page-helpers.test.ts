/**
 * What /insights makes of its figures before they are shown: each count's link to the history
 * (parsed back by the history's own schema, so a link always means what it says), and a wait's
 * range as text that always holds the range computed, in each of the console's languages.
 */
import { describe, expect, it } from "vitest";
import type { InsightsDto } from "../../lib/insights/dto.ts";
import { dayScope, historyHref, OUTCOME_OF_DECIDER, periodScope, reviewerScope } from "../../lib/insights/history-links.ts";
import { formatWaitRange } from "../../lib/insights/wait-range.ts";
import { bucketRange } from "../../lib/insights/wait-scale.ts";
import { sanitizeAuditQuery } from "../../lib/search-params.ts";

const period: InsightsDto["period"] = {
  firstDay: "2026-03-01",
  lastDay: "2026-03-07",
  // Seoul: UTC+9, so the local days start at 15:00 UTC the day before.
  from: "2026-02-28T15:00:00.000Z",
  to: "2026-03-06T12:00:00.000Z",
  timeZone: "Asia/Seoul",
  utcDaysFrom: "2026-02-28T00:00:00.000Z",
  utcDaysTo: "2026-03-06T12:00:00.000Z",
};
const insights = (filters: InsightsDto["filters"] = {}) => ({ period, filters });

/** The history's parameters as its page applies them, and what it ignored. */
function followed(href: string | null) {
  expect(href).not.toBeNull();
  const url = new URL(href!, "http://console.example");
  expect(url.pathname).toBe("/history");
  const { query, problems } = sanitizeAuditQuery(Object.fromEntries(url.searchParams));
  expect(problems).toEqual([]);
  return query;
}

describe("links from insights to the history", () => {
  it("carry the count's agent, tool, reviewer and outcome, and its period with `to` the last millisecond in it", () => {
    const query = followed(
      historyHref(insights(), { ...reviewerScope(insights()), agentId: "refunds", reviewer: "rita@example.com", outcome: "applied" }),
    );
    expect(query).toMatchObject({ agentId: "refunds", reviewer: "rita@example.com", outcome: "applied" });
    expect(query.toolName).toBeUndefined();
    expect(query.from?.toISOString()).toBe("2026-02-28T00:00:00.000Z");
    expect(query.to?.toISOString()).toBe("2026-03-06T11:59:59.999Z");
  });

  it("keep the page's own agent and tool filters, and a row's own agent and tool over them", () => {
    const filtered = insights({ agentId: "refunds", toolName: "issueRefund" });
    expect(followed(historyHref(filtered, periodScope(filtered)))).toMatchObject({ agentId: "refunds", toolName: "issueRefund" });
    expect(followed(historyHref(filtered, { ...periodScope(filtered), agentId: "billing", toolName: "charge" }))).toMatchObject({
      agentId: "billing",
      toolName: "charge",
    });
  });

  it("name the history's outcome of each decider", () => {
    expect(OUTCOME_OF_DECIDER).toEqual({
      person: "applied",
      rule: "applied",
      suggestion: "applied",
      expiry: "expired",
      outside: "decided-outside",
    });
    expect(followed(historyHref(insights(), { ...periodScope(insights()), outcome: OUTCOME_OF_DECIDER.outside })).outcome).toBe(
      "decided-outside",
    );
  });

  it("are none under a resource prefix or a risk, which the history cannot filter by", () => {
    expect(historyHref(insights({ resourcePrefix: "cust_" }), periodScope(insights()))).toBeNull();
    expect(historyHref(insights({ risk: "high" }), periodScope(insights()))).toBeNull();
  });

  it("span one local day of the viewer's zone, cut to the period at its ends", () => {
    expect(dayScope(insights(), "2026-03-03")).toEqual({ from: "2026-03-02T15:00:00.000Z", to: "2026-03-03T15:00:00.000Z" });
    // The last day ends now (the period's end), not at its midnight.
    expect(dayScope(insights(), "2026-03-06")).toEqual({ from: "2026-03-05T15:00:00.000Z", to: "2026-03-06T12:00:00.000Z" });
  });
});

describe("a wait's range as text", () => {
  it("rounds outwards to two significant digits in the unit its lower end reaches", () => {
    expect(formatWaitRange({ fromMs: 180_000, toMs: 225_000 }, "en")).toBe("3–3.8 min");
    expect(formatWaitRange({ fromMs: 0, toMs: 250 }, "en")).toBe("0–0.25 sec");
    expect(formatWaitRange({ fromMs: 70_063_923, toMs: 87_580_154 }, "en")).toBe("19–25 hr");
  });

  it("holds every bucket's range, and says it in Korean and Chinese", () => {
    const unitMs: Record<string, number> = { sec: 1_000, min: 60_000, hr: 3_600_000, days: 86_400_000, day: 86_400_000 };
    for (let bucket = 0; bucket < 80; bucket++) {
      const range = bucketRange(bucket);
      const text = formatWaitRange(range, "en");
      const [, from, to, unit] = /^([\d.]+)–([\d.]+) (\w+)$/.exec(text) ?? [];
      expect(unitMs[unit!], `bucket ${bucket}: ${text}`).toBeDefined();
      expect(Number(from) * unitMs[unit!]!, `bucket ${bucket}: ${text}`).toBeLessThanOrEqual(range.fromMs + 1e-6);
      expect(Number(to) * unitMs[unit!]!, `bucket ${bucket}: ${text}`).toBeGreaterThanOrEqual(range.toMs - 1e-6);
    }
    expect(formatWaitRange({ fromMs: 180_000, toMs: 225_000 }, "ko")).toBe("3~3.8분");
    expect(formatWaitRange({ fromMs: 180_000, toMs: 225_000 }, "zh-TW")).toBe("3-3.8 分鐘");
  });
});
