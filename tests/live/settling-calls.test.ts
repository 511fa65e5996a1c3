/**
 * Calls the live stream says somebody else is deciding (components/runs/settling-calls.ts): hidden
 * from the queue at the stream's word, shown again when a list read after it says the call waits.
 */
import { describe, expect, it } from "vitest";
import { alreadyShown, changesOnlyHidden, noSettlingCalls, settleFrom, withoutSettling } from "../../components/runs/settling-calls.ts";
import type { CachedRunsView } from "../../components/runs/runs-query.ts";
import type { QueueChangeDto } from "../../lib/live/types.ts";

const recent = new Date().toISOString();
const old = "2026-01-01T00:00:00.000Z";

function view(readAt: number | undefined, inFlight: string[] = []): CachedRunsView {
  const call = (toolCallId: string) => ({
    toolCallId,
    toolName: "issueRefund",
    ...(inFlight.includes(toolCallId) ? { inFlight: { reviewer: "Ada", action: "approve" as const, decidedAt: recent } } : {}),
  });
  return {
    threads: [
      {
        threadKey: "t1",
        calls: 3,
        overdueCalls: 1,
        oldestSuspendedAt: old,
        runs: [
          { runId: "r1", suspendedAt: old, toolCalls: [call("a"), call("b")] },
          { runId: "r2", suspendedAt: recent, toolCalls: [call("c")] },
        ],
      },
      {
        threadKey: "t2",
        calls: 1,
        overdueCalls: 0,
        oldestSuspendedAt: recent,
        runs: [{ runId: "r3", suspendedAt: recent, toolCalls: [call("d")] }],
      },
    ],
    threadTotal: 2,
    callTotal: 4,
    page: 1,
    perPage: 20,
    pageCount: 1,
    slaMinutes: 60,
    riskTargets: { low: 60, medium: 60, high: 60 },
    readAt,
  } as unknown as CachedRunsView;
}

const change = (kind: string, runId: string, toolCallId: string | null, position = 1): QueueChangeDto => ({
  position,
  kind,
  runId,
  toolCallId,
  agentId: "refunds",
  threadId: "t1",
  resourceId: "cust_1",
});

const keepNone = () => false;
const calls = (shown: CachedRunsView) =>
  shown.threads.flatMap((t) => t.runs.flatMap((r) => r.toolCalls.map((c) => `${r.runId}:${c.toolCallId}`)));

describe("settling calls", () => {
  it("hides a call at the stream's word of its decision, and lowers the counts with it", () => {
    const settling = settleFrom(noSettlingCalls(), change("decision.recorded", "r1", "a"), 100);
    const shown = withoutSettling(view(50), settling, keepNone);
    expect(calls(shown)).toEqual(["r1:b", "r2:c", "r3:d"]);
    expect(shown.threads[0]).toMatchObject({ calls: 2, overdueCalls: 0 });
    expect(shown).toMatchObject({ callTotal: 3, threadTotal: 2 });
  });

  it("hides a call of a run without a thread like any other, and drops the no-thread group once empty", () => {
    const alone = {
      ...view(50),
      threads: [
        {
          threadKey: "",
          calls: 1,
          overdueCalls: 0,
          oldestSuspendedAt: recent,
          runs: [{ runId: "r9", suspendedAt: recent, toolCalls: [{ toolCallId: "w", toolName: "step" }] }],
        },
      ],
      threadTotal: 1,
      callTotal: 1,
    } as unknown as CachedRunsView;
    const shown = withoutSettling(alone, settleFrom(noSettlingCalls(), change("decision.recorded", "r9", "w"), 100), keepNone);
    expect(shown).toMatchObject({ threads: [], callTotal: 0, threadTotal: 0 });
  });

  it("drops a run and a thread once none of their calls are left", () => {
    let settling = settleFrom(noSettlingCalls(), change("decision.recorded", "r3", "d"), 100);
    settling = settleFrom(settling, change("decision.applying", "r2", "c"), 101);
    const shown = withoutSettling(view(50), settling, keepNone);
    expect(calls(shown)).toEqual(["r1:a", "r1:b"]);
    expect(shown.threads.map((t) => t.threadKey)).toEqual(["t1"]);
    expect(shown).toMatchObject({ callTotal: 2, threadTotal: 1 });
  });

  it("keeps hiding a call a later list still shows as being decided, and shows one it lists as waiting", () => {
    const settling = settleFrom(noSettlingCalls(), change("decision.recorded", "r1", "a"), 100);
    expect(calls(withoutSettling(view(150, ["a"]), settling, keepNone))).not.toContain("r1:a");
    // Read after the word and not in flight: released, failed or marked expired; the server is right.
    expect(calls(withoutSettling(view(150), settling, keepNone))).toContain("r1:a");
    // Read before the word (or the page's first data, with no time): it cannot know yet.
    expect(calls(withoutSettling(view(undefined), settling, keepNone))).not.toContain("r1:a");
  });

  it("forgets a call whose decision was released: it waits again", () => {
    let settling = settleFrom(noSettlingCalls(), change("decision.recorded", "r1", "a"), 100);
    settling = settleFrom(settling, change("decision.released", "r1", "a"), 120);
    expect(settling.size).toBe(0);
    expect(calls(withoutSettling(view(50, ["a"]), settling, keepNone))).toContain("r1:a");
  });

  it("leaves calls this tab has open or is deciding in place", () => {
    const settling = settleFrom(noSettlingCalls(), change("decision.recorded", "r1", "a"), 100);
    const keep = (runId: string, toolCallId: string) => runId === "r1" && toolCallId === "a";
    expect(withoutSettling(view(50), settling, keep)).toEqual(view(50));
    expect(alreadyShown(settling, change("decision.applying", "r1", "a"), keep)).toBe(false);
  });

  it("needs no read of the list for a claim on a call it hides, but does once the decision is carried out", () => {
    const settling = settleFrom(noSettlingCalls(), change("decision.recorded", "r1", "a"), 100);
    expect(alreadyShown(settling, change("decision.recorded", "r1", "a"), keepNone)).toBe(true);
    expect(alreadyShown(settling, change("decision.applying", "r1", "a"), keepNone)).toBe(true);
    expect(alreadyShown(settling, change("decision.applied", "r1", "a"), keepNone)).toBe(false);
    expect(alreadyShown(settling, change("decision.recorded", "r1", "b"), keepNone)).toBe(false);
  });

  it("ignores changes that name no call, and what is not a decision", () => {
    const none = noSettlingCalls();
    expect(settleFrom(none, change("decision.recorded", "r1", null), 1)).toBe(none);
    expect(settleFrom(none, change("left", "r1", "a"), 1)).toBe(none);
    expect(settleFrom(none, change("presence", "r1", "a"), 1)).toBe(none);
    expect(withoutSettling(view(1), none, keepNone)).toEqual(view(1));
  });

  it("remembers a bounded number of words, oldest forgotten first", () => {
    let settling = noSettlingCalls();
    for (let i = 0; i < 600; i++) settling = settleFrom(settling, change("decision.recorded", `r${i}`, "a", i), i);
    expect(settling.size).toBe(500);
    expect(settling.has("r0:a")).toBe(false);
    expect(settling.has("r599:a")).toBe(true);
  });

  describe("what can wait for the throttled read (a hundred tabs hid the same call)", () => {
    const hiding = (...pairs: Array<[string, string]>) =>
      pairs.reduce(
        (settling, [runId, toolCallId], i) => settleFrom(settling, change("decision.recorded", runId, toolCallId, i), 100 + i),
        noSettlingCalls(),
      );

    it("the decision of a hidden call carried out, and its run leaving once every call it showed is hidden", () => {
      const settling = hiding(["r2", "c"]);
      expect(changesOnlyHidden(settling, change("decision.applied", "r2", "c"), view(50), keepNone)).toBe(true);
      expect(changesOnlyHidden(settling, change("left", "r2", null), view(50), keepNone)).toBe(true);
    });

    it("not a run that still shows a call nobody said was decided: it may be that call that left", () => {
      const settling = hiding(["r1", "a"]);
      expect(changesOnlyHidden(settling, change("left", "r1", null), view(50), keepNone)).toBe(false);
      expect(changesOnlyHidden(hiding(["r1", "a"], ["r1", "b"]), change("left", "r1", null), view(50), keepNone)).toBe(true);
    });

    it("not a call this tab has open or is deciding: it shows what the server says", () => {
      const settling = hiding(["r2", "c"]);
      const keep = (runId: string, toolCallId: string) => runId === "r2" && toolCallId === "c";
      expect(changesOnlyHidden(settling, change("decision.applied", "r2", "c"), view(50), keep)).toBe(false);
      expect(changesOnlyHidden(settling, change("left", "r2", null), view(50), keep)).toBe(false);
    });

    it("a run without a thread, or without a resource, the same way (the No thread group, a change naming neither)", () => {
      const withNoThread = {
        ...view(50),
        threads: [
          ...view(50).threads,
          {
            threadKey: "",
            calls: 2,
            overdueCalls: 0,
            oldestSuspendedAt: recent,
            runs: [{ runId: "r9", suspendedAt: recent, toolCalls: [{ toolCallId: "e" }, { toolCallId: "f" }] }],
          },
        ],
      } as unknown as CachedRunsView;
      const bare = (kind: string, toolCallId: string | null): QueueChangeDto => ({
        ...change(kind, "r9", toolCallId),
        threadId: null,
        resourceId: null,
      });
      expect(changesOnlyHidden(hiding(["r9", "e"]), bare("decision.applied", "e"), withNoThread, keepNone)).toBe(true);
      expect(changesOnlyHidden(hiding(["r9", "e"]), bare("left", null), withNoThread, keepNone)).toBe(false);
      expect(changesOnlyHidden(hiding(["r9", "e"], ["r9", "f"]), bare("left", null), withNoThread, keepNone)).toBe(true);
    });

    it("not what else a decision may come to (released, failed), a call not hidden, a run not on the page, or no page yet", () => {
      const settling = hiding(["r2", "c"]);
      expect(changesOnlyHidden(settling, change("decision.released", "r2", "c"), view(50), keepNone)).toBe(false);
      expect(changesOnlyHidden(settling, change("decision.failed", "r2", "c"), view(50), keepNone)).toBe(false);
      expect(changesOnlyHidden(settling, change("decision.applied", "r3", "d"), view(50), keepNone)).toBe(false);
      expect(changesOnlyHidden(settling, change("left", "r7", null), view(50), keepNone)).toBe(false);
      expect(changesOnlyHidden(settling, change("left", "r2", null), undefined, keepNone)).toBe(false);
      expect(changesOnlyHidden(noSettlingCalls(), change("left", "r2", null), view(50), keepNone)).toBe(false);
    });
  });
});
