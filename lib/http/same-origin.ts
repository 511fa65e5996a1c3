/**
 * Cross-site request forgery guard for the JSON API's state-changing routes. Browsers send Origin on
 * every cross-site POST; a page elsewhere must not be able to decide with a reviewer's cookie.
 * (Server actions get the same check from Next.js itself.) A request with `Authorization: Bearer …`
 * is exempt from the Origin check: its cookie is never read (lib/auth/session.ts), and a page
 * elsewhere cannot set that header on a cross-site request without the console's CORS consent,
 * which it never gives.
 */
export function crossSiteProblem(request: Request): string | null {
  const bearer = /^\s*bearer\s/i.test(request.headers.get("authorization") ?? "");
  const origin = bearer ? null : request.headers.get("origin");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (origin) {
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      return "The request's Origin is not a valid URL.";
    }
    const trusted = (process.env.BETTER_AUTH_TRUSTED_ORIGINS ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (originHost !== host && !trusted.includes(origin)) return `Requests from ${origin} are not accepted.`;
  }
  // A cross-site HTML form cannot send JSON: requiring it closes the no-Origin corner as well.
  if (!request.headers.get("content-type")?.toLowerCase().startsWith("application/json")) {
    return "The request body must be JSON (content-type: application/json).";
  }
  return null;
}
