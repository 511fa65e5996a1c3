import { useSyncExternalStore } from "react";

/**
 * How many calls the server renders into the queue's HTML: a screenful and more. The rest render
 * once the page runs in the browser, from the data the page already holds. Rendering all of a
 * first page's calls on the server (~1,000 at 50 a thread) took ~400 ms per page view (bench/page.ts);
 * 120 were still most of what a queue page cost the server under load (bench/README.md, the open
 * loop's profile: React rendering and message formatting for rows nobody had scrolled to yet).
 */
export const SERVER_RENDERED_CALLS = 40;

const subscribeToNothing = () => () => {};

/** False while the server renders and while the browser hydrates that HTML; true from the next render on. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/** `segments` with at most `budget` calls in all, in order; each says how many of its calls wait to render. */
export function withinBudget<G, C>(segments: Array<{ group: G; calls: C[] }>, budget: number) {
  let left = budget;
  return segments.map(({ group, calls }) => {
    const shown = calls.slice(0, Math.max(0, left));
    left -= shown.length;
    return { group, calls: shown, deferred: calls.length - shown.length };
  });
}
