import type { Page, Request } from "@playwright/test";

/**
 * Every request a page sends from now on but its live stream's and Next's one-time prefetch of a
 * run link that came into view (it may land late on a busy machine): what a timer would show up as.
 */
export function recordRequests(page: Page): Request[] {
  const sent: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/events/stream")) return;
    if (request.method() === "GET" && request.headers()["next-router-prefetch"] === "1") return;
    sent.push(request);
  });
  return sent;
}
