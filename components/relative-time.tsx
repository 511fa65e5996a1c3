"use client";

import { useSyncExternalStore } from "react";
import { useTimestamp, useWait } from "./time";

/* One shared clock for every relative time on the page, ticking every 15 s. */
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((notify) => notify());
    }, 15_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

function getSnapshot() {
  return now;
}

function getServerSnapshot() {
  // On the server the module lives long: read the clock (rounded, so repeated reads agree).
  return typeof window === "undefined" ? Math.floor(Date.now() / 10_000) * 10_000 : now;
}

export function useNow(): number {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}

/** How long ago `iso` was ("12 min"), with the full timestamp as tooltip. */
export function WaitingTime({ iso, prefix, className }: { iso: string; prefix?: string; className?: string }) {
  const current = useNow();
  const formatWait = useWait();
  const full = useTimestamp()(iso);
  return (
    <time dateTime={iso} title={full} className={className} suppressHydrationWarning>
      {prefix}
      {formatWait(iso, current)}
    </time>
  );
}
