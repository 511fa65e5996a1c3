/**
 * Parsed ICU messages kept across requests. next-intl makes a new cache for every request, so each
 * page parsed again every message it formats with arguments (about a tenth of a queue page's CPU).
 * The request configuration (request.ts) hands next-intl one of these instead: the translators of
 * every request in that language and time zone reuse the parsed messages (use-intl keys them by
 * message, locale and formats, which hold the time zone). Bounded: the oldest pair is let go.
 */
import { _createCache } from "use-intl/core";

export type MessageCache = ReturnType<typeof _createCache>;

/** More language and time zone pairs than a console's readers use at once; each holds one catalog's parsed messages. */
export const MESSAGE_CACHES_KEPT = 64;

const caches = new Map<string, MessageCache>();

export function messageCacheFor(locale: string, timeZone: string): MessageCache {
  const key = `${locale} ${timeZone}`;
  let cache = caches.get(key);
  if (cache) {
    // Most recently used last, so the first is the one to let go.
    caches.delete(key);
  } else {
    cache = _createCache();
    if (caches.size >= MESSAGE_CACHES_KEPT) caches.delete(caches.keys().next().value!);
  }
  caches.set(key, cache);
  return cache;
}
