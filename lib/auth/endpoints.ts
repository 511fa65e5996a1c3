/**
 * The better-auth endpoints the console answers on, and why each is open. better-auth mounts some
 * fifty (sign-up, password reset, update-user, the admin plugin's set-role, impersonate-user,
 * remove-user, …): every one of them would bypass the console's own rules, such as "no admin
 * removes their own role" or the checks `createUser` applies to names. The console manages users
 * through its own server actions (which call better-auth server-side, not over HTTP), so over HTTP
 * only signing in and out is open; everything else answers 404 before better-auth sees it.
 *
 * Paths are matched exactly as sent (no decoding, no trailing slash): a spelling better-auth's
 * router might also accept is simply not on the list.
 */
import { ssoProviderName } from "./auth.ts";

export const AUTH_BASE_PATH = "/api/auth";

export interface AuthEndpoint {
  method: "GET" | "POST";
  /** Under AUTH_BASE_PATH. */
  path: string;
  why: string;
  /** Open only while OIDC / SSO is configured. */
  sso?: boolean;
}

export const AUTH_ENDPOINTS: readonly AuthEndpoint[] = [
  { method: "POST", path: "/sign-in/email", why: "sign in with email and password (the sign-in page, scripts)" },
  { method: "POST", path: "/sign-out", why: "end the session (scripts; the header's Sign out is a server action)" },
  { method: "GET", path: "/get-session", why: "who a session cookie belongs to (scripts checking their cookie)" },
  // better-auth's generic OAuth plugin registers the provider as a social one: started by sign-in/social, back at callback/<id>.
  { method: "POST", path: "/sign-in/social", why: "start single sign-on", sso: true },
  { method: "GET", path: "/callback/sso", why: "the identity provider's redirect back", sso: true },
  { method: "POST", path: "/callback/sso", why: "the same, for providers that post it back (`response_mode=form_post`)", sso: true },
];

/** The endpoints open right now (the SSO ones only with OIDC configured). */
export function openAuthEndpoints(): AuthEndpoint[] {
  const sso = ssoProviderName() !== null;
  return AUTH_ENDPOINTS.filter((endpoint) => sso || !endpoint.sso);
}

/** Whether a request may reach better-auth. `pathname` is the URL's path as sent. */
export function isOpenAuthEndpoint(method: string, pathname: string): boolean {
  if (!pathname.startsWith(`${AUTH_BASE_PATH}/`)) return false;
  const path = pathname.slice(AUTH_BASE_PATH.length);
  const asked = method === "HEAD" ? "GET" : method;
  return openAuthEndpoints().some((endpoint) => endpoint.method === asked && endpoint.path === path);
}
