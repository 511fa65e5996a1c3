/**
 * Chromium for the benchmarks that drive a real browser (bench/live-propagation.ts, bench/live-herd.ts):
 * launched as playwright.config.ts launches it (Debian's; Playwright cannot download browsers here),
 * and a browser context signed in with a session cookie from tests/helpers/accounts.ts.
 */
import type { Browser, BrowserContext } from "@playwright/test";

export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run", "--disable-quic"],
};

/** A new context of `browser` on `serverUrl`, signed in with `cookie` (`name=value`, as `sessionCookie` gives it). */
export async function signedInContext(browser: Browser, serverUrl: string, cookie: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: serverUrl });
  // The servers run in production: the session cookie is Secure and __Secure- prefixed (tests/helpers/accounts.ts).
  const [name, value] = [cookie.slice(0, cookie.indexOf("=")), cookie.slice(cookie.indexOf("=") + 1)];
  // Given by domain and path: Chromium refuses a Secure cookie given by an http:// URL, and sends one to 127.0.0.1.
  await context.addCookies([
    { name, value, domain: new URL(serverUrl).hostname, path: "/", secure: true, httpOnly: true, sameSite: "Lax" },
  ]);
  return context;
}
