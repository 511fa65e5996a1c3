/**
 * Whether the queued calls of a page were left behind: the run waits on none of the calls of its step
 * any more (the live page's last read of the run, components/run-detail/run-live.tsx): it went on
 * without the console, or ended. While it waits on any of them, the queued ones may still be reached
 * (one of them waiting now makes the page read itself again and show it decidable).
 */
export function queuedCallsLeft(waitingNow: ReadonlySet<string> | null, stepCalls: readonly string[]): boolean {
  return waitingNow !== null && !stepCalls.some((toolCallId) => waitingNow.has(toolCallId));
}
