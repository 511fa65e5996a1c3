"use client";

import { createAuthClient } from "better-auth/react";

/** The browser side of better-auth; same origin as the console. */
export const authClient = createAuthClient();

/** Starts the configured OIDC / SSO sign-in (better-auth's generic OAuth endpoint) and follows it. */
export async function signInWithSso(callbackURL: string): Promise<string | null> {
  const { data, error } = await authClient.$fetch<{ url?: string }>("/sign-in/oauth2", {
    method: "POST",
    body: { providerId: "sso", callbackURL },
  });
  if (error || !data?.url) return error?.message ?? "Single sign-on is not available right now.";
  window.location.assign(data.url);
  return null;
}
