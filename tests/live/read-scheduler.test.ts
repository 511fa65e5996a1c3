/**
 * When a live page reads its data again (components/runs/read-scheduler.ts): together, one read; of
 * what it shows, at once; elsewhere, at once when quiet but at most every ELSEWHERE_MS when busy.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COALESCE_MS, ELSEWHERE_JITTER_MS, ELSEWHERE_MS, readScheduler } from "../../components/runs/read-scheduler.ts";
import type { QueueChangeDto } from "../../lib/live/types.ts";

const change = (position: number): QueueChangeDto => ({
  position,
  kind: "left",
  runId: `r${position}`,
  toolCallId: null,
  agentId: null,
  threadId: null,
  resourceId: null,
});

describe("readScheduler", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  const scheduler = (random = () => 0) => {
    const reads: Array<number[] | null> = [];
    const reader = readScheduler((changes) => reads.push(changes && changes.map((c) => c.position)), { now: () => Date.now(), random });
    return { reads, reader };
  };

  it("makes changes that arrive together one read, soon", () => {
    const { reads, reader } = scheduler();
    reader.soon(change(1));
    reader.soon(change(2));
    vi.advanceTimersByTime(COALESCE_MS - 1);
    expect(reads).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(reads).toEqual([[1, 2]]);
  });

  it("reads for a change elsewhere at once when quiet, then at most every ELSEWHERE_MS", () => {
    const { reads, reader } = scheduler();
    reader.later(change(1));
    vi.advanceTimersByTime(COALESCE_MS);
    expect(reads).toEqual([[1]]);
    // Busy: two decisions a second elsewhere for ten seconds are three reads, not twenty.
    for (let i = 2; i <= 21; i++) {
      reader.later(change(i));
      vi.advanceTimersByTime(500);
    }
    vi.advanceTimersByTime(ELSEWHERE_MS);
    expect(reads.length).toBe(3);
    expect(reads.flat()).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });

  it("spreads the first read for a change elsewhere over up to ELSEWHERE_JITTER_MS", () => {
    const { reads, reader } = scheduler(() => 0.999);
    reader.later(change(1));
    vi.advanceTimersByTime(COALESCE_MS + ELSEWHERE_JITTER_MS - 2);
    expect(reads).toEqual([]);
    vi.advanceTimersByTime(2);
    expect(reads).toEqual([[1]]);
  });

  it("does not hold back a change of what the page shows behind one elsewhere, and carries both in one read", () => {
    const { reads, reader } = scheduler();
    reader.later(change(1));
    vi.advanceTimersByTime(COALESCE_MS);
    reader.later(change(2)); // throttled: due ELSEWHERE_MS after the first read
    reader.soon(change(3));
    vi.advanceTimersByTime(COALESCE_MS);
    expect(reads).toEqual([[1], [2, 3]]);
    vi.advanceTimersByTime(ELSEWHERE_MS * 2);
    expect(reads.length).toBe(2);
  });

  it("says anything may have changed after a read asked for without a change", () => {
    const { reads, reader } = scheduler();
    reader.later(change(1));
    reader.soon();
    vi.advanceTimersByTime(COALESCE_MS);
    expect(reads).toEqual([null]);
  });

  it("reads nothing once disposed", () => {
    const { reads, reader } = scheduler();
    reader.soon(change(1));
    reader.later(change(2));
    reader.dispose();
    vi.advanceTimersByTime(ELSEWHERE_MS * 2);
    expect(reads).toEqual([]);
  });
});
