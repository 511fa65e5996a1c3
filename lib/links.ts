/**
 * Links into the console from outside it (Slack messages, emails): the one place that knows the
 * console's public address (CONSOLE_URL, else BETTER_AUTH_URL) and the shape of a run's page.
 */

/** The console's base URL without a trailing slash, or null when neither setting is there. */
export const consoleUrl = (): string | null => (process.env.CONSOLE_URL || process.env.BETTER_AUTH_URL || "").replace(/\/+$/, "") || null;

/** A run's page in the console (where its waiting calls are decided), or null without a base URL. */
export function runLink(runId: string): string | null {
  const base = consoleUrl();
  return base ? `${base}/runs/${encodeURIComponent(runId)}` : null;
}
