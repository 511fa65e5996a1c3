/**
 * Which live changes make the runs page read its list again (components/runs/live-changes.ts): none
 * outside its filters; inside them, anything of what it shows at once, calls arriving, leaving or
 * rated elsewhere throttled; decisions, assignments and approvals elsewhere not (any assignment when
 * it is filtered by assignee).
 */
import { describe, expect, it } from "vitest";
import { concernsView } from "../../components/runs/live-changes.ts";
import type { QueueChangeDto } from "../../lib/live/types.ts";
import type { RunsViewDto } from "../../lib/queue/dto.ts";

const view = {
  threads: [
    { threadKey: "t-shown", calls: 1, overdueCalls: 0, oldestSuspendedAt: "2026-12-01T00:00:00.000Z", runs: [{ runId: "r-shown" }] },
  ],
} as unknown as RunsViewDto;

const change = (patch: Partial<QueueChangeDto>): QueueChangeDto => ({
  position: 1,
  kind: "waiting",
  runId: "r-other",
  toolCallId: "c1",
  agentId: "refunds",
  threadId: "t-other",
  resourceId: "cust_1",
  ...patch,
});

describe("concernsView", () => {
  it("ignores changes outside the page's filters", () => {
    expect(concernsView(change({}), { resourceId: "cust_2" }, view)).toBe(false);
    expect(concernsView(change({}), { agentId: "shipping" }, view)).toBe(false);
    expect(concernsView(change({}), { threadId: "t-shown" }, view)).toBe(false);
    expect(concernsView(change({}), { noThread: "1" }, view)).toBe(false);
    expect(concernsView(change({}), { resourceId: "cust_1", agentId: "refunds" }, view)).toBe("elsewhere");
  });

  it("reads again, throttled, for calls arriving, leaving or rated elsewhere inside the filters", () => {
    for (const kind of ["waiting", "left", "rated"]) expect(concernsView(change({ kind }), {}, view), kind).toBe("elsewhere");
  });

  it("reads again at once for anything of a run or thread it shows", () => {
    for (const kind of ["waiting", "left", "rated", "decision.recorded", "decision.applied", "assigned", "approved"]) {
      expect(concernsView(change({ kind, runId: "r-shown", threadId: "t-shown" }), {}, view), kind).toBe("now");
      // A run of a thread the page shows, beyond the runs it lists: the thread's count moves.
      expect(concernsView(change({ kind, runId: "r-unlisted", threadId: "t-shown" }), {}, view), kind).toBe("now");
    }
  });

  it("reads again at once for a run it shows without a thread, whose changes name none", () => {
    const noThread = {
      threads: [{ threadKey: "", calls: 1, overdueCalls: 0, oldestSuspendedAt: "2026-12-01T00:00:00.000Z", runs: [{ runId: "r-alone" }] }],
    } as unknown as RunsViewDto;
    for (const kind of ["left", "decision.applied"]) {
      expect(concernsView(change({ kind, runId: "r-alone", threadId: null }), {}, noThread), kind).toBe("now");
    }
    expect(concernsView(change({ kind: "left", runId: "r-other", threadId: null }), {}, noThread)).toBe("elsewhere");
    expect(concernsView(change({ kind: "decision.applied", runId: "r-other", threadId: null }), {}, noThread)).toBe(false);
  });

  it("does not read again for decisions, assignments and approvals elsewhere, but assignments when filtered by assignee", () => {
    for (const kind of ["decision.recorded", "decision.applied", "assigned", "approved"]) {
      expect(concernsView(change({ kind }), {}, view), kind).toBe(false);
    }
    expect(concernsView(change({ kind: "assigned", runId: null, toolCallId: null, threadId: "t-shown" }), {}, view)).toBe("now");
    expect(concernsView(change({ kind: "assigned", runId: null, toolCallId: null, threadId: "t-other" }), {}, view)).toBe(false);
    expect(concernsView(change({ kind: "assigned" }), { assigned: "me" }, view)).toBe("now");
  });

  it("never reads again for someone opening or closing a call, even one it shows", () => {
    const presence = change({ kind: "presence", runId: "r-shown", agentId: null, threadId: null, resourceId: null, viewers: [] });
    expect(concernsView(presence, {}, view)).toBe(false);
    expect(concernsView(presence, {}, undefined)).toBe(false);
  });

  it("reads again at once for anything inside the filters before the list was first read", () => {
    expect(concernsView(change({ kind: "decision.recorded" }), {}, undefined)).toBe("now");
  });
});
