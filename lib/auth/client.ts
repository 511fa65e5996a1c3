"use client";

import { createAuthClient } from "better-auth/react";

/** The browser side of better-auth; same origin as the console. */
export const authClient = createAuthClient();

/**
 * Starts the configured OIDC / SSO sign-in and follows it. better-auth's generic OAuth plugin makes
 * the provider a social one (id "sso"); a failed round trip comes back to the sign-in page with `error`.
 */
export async function signInWithSso(callbackURL: string): Promise<string | null> {
  const { data, error } = await authClient.$fetch<{ url?: string }>("/sign-in/social", {
    method: "POST",
    body: { provider: "sso", callbackURL, errorCallbackURL: "/sign-in" },
  });
  if (error || !data?.url) return error?.message ?? "Single sign-on is not available right now.";
  window.location.assign(data.url);
  return null;
}
