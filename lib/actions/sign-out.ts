"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getAuth } from "../auth/auth.ts";

/**
 * Ends the session on the server (better-auth's nextCookies plugin clears the cookie on this
 * response), then shows the sign-in page. A form action, so signing out needs no auth client in
 * every page's JavaScript and works before the page has hydrated.
 */
export async function signOut(): Promise<never> {
  const auth = await getAuth();
  await auth.api.signOut({ headers: await headers() }).catch(() => {
    // No session (already signed out, or expired): the sign-in page is still where they belong.
  });
  redirect("/sign-in");
}
