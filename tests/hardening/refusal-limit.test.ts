/** The refusal budget on its own: per client, and for all anonymous clients together. */
import { afterEach, describe, expect, it } from "vitest";
import { admitRequest, countRefusal, refusalClient } from "../../lib/audit/refusal-limit.ts";

describe("refusal budget", () => {
  afterEach(() => {
    delete process.env.REFUSALS_PER_MINUTE;
    delete process.env.ANONYMOUS_REFUSALS_PER_MINUTE;
  });

  it("turns a client away once its refusals for the minute are used, and lets it back the next minute", () => {
    process.env.REFUSALS_PER_MINUTE = "3";
    const client = refusalClient({ id: `user-${Math.random()}` }, "10.0.0.1");
    const start = 1_000_000;
    expect([1, 2, 3].map(() => countRefusal(client, start))).toEqual([true, true, true]);
    expect(admitRequest(client, start + 10)).toMatchObject({ limited: true, retryAfterSeconds: 60, firstTurnedAway: true });
    expect(admitRequest(client, start + 20)).toMatchObject({ limited: true, firstTurnedAway: false });
    // Another client is not affected.
    expect(admitRequest(refusalClient({ id: `user-${Math.random()}` }, "10.0.0.1"), start + 20)).toEqual({ limited: false });
    expect(admitRequest(client, start + 60_000)).toEqual({ limited: false });
  });

  it("audits at most the anonymous budget a minute, however many addresses send", () => {
    process.env.ANONYMOUS_REFUSALS_PER_MINUTE = "5";
    const now = 5_000_000_000;
    const audited = Array.from({ length: 50 }, (_, i) => countRefusal(refusalClient(null, `192.0.2.${i}`), now)).filter(Boolean);
    expect(audited).toHaveLength(5);
    // A signed-in user is not part of the anonymous budget.
    expect(countRefusal(refusalClient({ id: `user-${Math.random()}` }, "192.0.2.1"), now)).toBe(true);
  });
});
