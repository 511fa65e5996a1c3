/**
 * What the queue shows of calls decided from it while they linger: they stay in their place, and no
 * thread header counts them as pending any more, whether or not the server's last read still had them.
 */
import { describe, expect, it } from "vitest";
import { callRowId, snapshotCall, withLingering, type LingeringCall } from "../../components/runs/runs-table-lingering.ts";
import type { RunDto, ThreadDto } from "../../lib/queue/dto.ts";

const OVERDUE_BEFORE = "2026-01-01T12:00:00.000Z";
const overdue = (suspendedAt: string) => suspendedAt < OVERDUE_BEFORE;

function run(runId: string, threadId: string, suspendedAt: string, calls = 1): RunDto {
  return {
    runId,
    status: "suspended",
    shape: "agent",
    agentId: "refunds",
    threadId: threadId || undefined,
    resourceId: "cust_1",
    suspendedAt,
    toolCalls: Array.from({ length: calls }, (_, i) => ({
      toolCallId: `${runId}-call-${i}`,
      toolName: "issueRefund",
      requiresApproval: true,
    })),
  };
}

function thread(threadKey: string, runs: RunDto[]): ThreadDto {
  const calls = runs.flatMap((r) => r.toolCalls.map(() => r));
  return {
    threadKey,
    calls: calls.length,
    overdueCalls: calls.filter((r) => overdue(r.suspendedAt)).length,
    oldestSuspendedAt: runs[0]!.suspendedAt,
    runs,
  };
}

const early = "2026-01-01T10:00:00.000Z"; // overdue
const late = "2026-01-01T13:00:00.000Z"; // not yet

function decided(threads: ThreadDto[], ...rowIds: string[]): Map<string, LingeringCall> {
  return new Map(rowIds.map((rowId) => [rowId, snapshotCall(threads, rowId)!]));
}

describe("decided calls lingering in the queue", () => {
  const a = thread("ticket-a", [run("r1", "ticket-a", early), run("r2", "ticket-a", late)]);
  const b = thread("ticket-b", [run("r3", "ticket-b", late, 2)]);
  const page = [a, b];
  const r1 = callRowId("r1", "r1-call-0", 0);
  const r2 = callRowId("r2", "r2-call-0", 0);
  const r3first = callRowId("r3", "r3-call-0", 0);

  it("leaves the page as it is when nothing was decided", () => {
    expect(withLingering(page, new Map(), overdue)).toBe(page);
  });

  it("stops counting a decided call the server still lists, and its overdue mark with it", () => {
    const shown = withLingering(page, decided(page, r1), overdue);
    expect(shown[0]).toMatchObject({ threadKey: "ticket-a", calls: 1, overdueCalls: 0 });
    expect(shown[0]!.runs.map((r) => r.runId)).toEqual(["r1", "r2"]);
    expect(shown[1]).toBe(b);
  });

  it("keeps the overdue count of a decided call that was not overdue", () => {
    const shown = withLingering(page, decided(page, r2), overdue);
    expect(shown[0]).toMatchObject({ calls: 1, overdueCalls: 1 });
  });

  it("puts a call the server no longer lists back in its place, without counting it", () => {
    const lingering = decided(page, r1);
    const refreshed = [thread("ticket-a", [run("r2", "ticket-a", late)]), b];
    const shown = withLingering(refreshed, lingering, overdue);
    expect(shown[0]!.runs.map((r) => r.runId)).toEqual(["r1", "r2"]);
    expect(shown[0]).toMatchObject({ calls: 1, overdueCalls: 0 });
  });

  it("shows a thread the server no longer lists with no pending calls, in its place", () => {
    const lingering = decided(page, r1, r2);
    const shown = withLingering([b], lingering, overdue);
    expect(shown.map((t) => t.threadKey)).toEqual(["ticket-a", "ticket-b"]);
    expect(shown[0]).toMatchObject({ calls: 0, overdueCalls: 0 });
    expect(shown[0]!.runs.map((r) => r.runId)).toEqual(["r1", "r2"]);
  });

  it("counts each decided call of a run with several calls once", () => {
    const shown = withLingering(page, decided(page, r3first), overdue);
    expect(shown[1]).toMatchObject({ threadKey: "ticket-b", calls: 1 });
    expect(shown[1]!.runs[0]!.toolCalls).toHaveLength(2);
  });

  describe("calls this tab is deciding right now (held)", () => {
    it("changes nothing while the server still lists them: counts included", () => {
      const held = decided(page, r1);
      const shown = withLingering(page, new Map(), overdue, held);
      expect(shown).toEqual(page);
    });

    it("puts a held call back when a read that answered first no longer lists it, counts as the server gave them", () => {
      const held = decided(page, r1);
      const refreshed = [thread("ticket-a", [run("r2", "ticket-a", late)]), b];
      const shown = withLingering(refreshed, new Map(), overdue, held);
      expect(shown[0]!.runs.map((r) => r.runId)).toEqual(["r1", "r2"]);
      expect(shown[0]).toMatchObject({ calls: 1, overdueCalls: 0 });
    });

    it("brings back a whole thread the read dropped, in its place", () => {
      const held = decided(page, r1, r2);
      const shown = withLingering([b], new Map(), overdue, held);
      expect(shown.map((t) => t.threadKey)).toEqual(["ticket-a", "ticket-b"]);
      expect(shown[0]!.runs.map((r) => r.runId)).toEqual(["r1", "r2"]);
    });

    it("puts a call both held and lingering back once", () => {
      const kept = decided(page, r1);
      const refreshed = [thread("ticket-a", [run("r2", "ticket-a", late)]), b];
      const shown = withLingering(refreshed, kept, overdue, kept);
      expect(shown[0]!.runs.map((r) => r.runId)).toEqual(["r1", "r2"]);
    });
  });
});
