/**
 * When a live page reads its data again (use-live-queue.ts): changes that arrive together are one
 * read; changes of what the page shows are read at once, changes elsewhere at most every
 * ELSEWHERE_MS. With a hundred tabs open, every decision anywhere would otherwise be a hundred reads
 * of the list at the same moment; what a tab shows still follows within a moment.
 */
import type { QueueChangeDto } from "@/lib/live/types";

/** Changes that arrive together are one read. */
export const COALESCE_MS = 50;
/**
 * Changes elsewhere (the page's totals, what a later read may bring in) are read at most this often:
 * the first of them at once but for a random delay of up to ELSEWHERE_JITTER_MS, so that the tabs a
 * change reaches together do not all read at the same moment.
 */
export const ELSEWHERE_MS = 5_000;
export const ELSEWHERE_JITTER_MS = 500;

export interface ReadScheduler {
  /** Read at once (within COALESCE_MS); no change: anything may have changed. */
  soon(change?: QueueChangeDto): void;
  /** Read soon, throttled: a change of what the page does not show. */
  later(change: QueueChangeDto): void;
  dispose(): void;
}

/** `read` gets the changes since the last read, or null when anything may have changed. */
export function readScheduler(
  read: (changes: QueueChangeDto[] | null) => void,
  { now = () => performance.now(), random = Math.random } = {},
): ReadScheduler {
  let soonTimer: ReturnType<typeof setTimeout> | undefined;
  let laterTimer: ReturnType<typeof setTimeout> | undefined;
  let lastRead = Number.NEGATIVE_INFINITY;
  let batch: QueueChangeDto[] | null = [];
  const add = (change?: QueueChangeDto) => {
    if (!change) batch = null;
    else batch?.push(change);
  };
  const readNow = () => {
    clearTimeout(soonTimer);
    clearTimeout(laterTimer);
    soonTimer = laterTimer = undefined;
    const changes = batch;
    batch = [];
    lastRead = now();
    read(changes);
  };
  return {
    soon(change) {
      add(change);
      soonTimer ??= setTimeout(readNow, COALESCE_MS);
    },
    later(change) {
      add(change);
      if (soonTimer || laterTimer) return;
      laterTimer = setTimeout(readNow, Math.max(COALESCE_MS + random() * ELSEWHERE_JITTER_MS, lastRead + ELSEWHERE_MS - now()));
    },
    dispose() {
      clearTimeout(soonTimer);
      clearTimeout(laterTimer);
    },
  };
}
