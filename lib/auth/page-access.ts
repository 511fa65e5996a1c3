/** Access checks for server-rendered pages: anonymous visitors go to sign-in and come back after. */
import { redirect } from "next/navigation";
import type { Permission } from "./roles.ts";
import { AccessDenied, requirePermission, type Actor } from "./session.ts";

export type PageAccess = { allowed: true; actor: Actor } | { allowed: false; actor: Actor; message: string };

export async function pageAccess(permission: Permission, returnTo: string): Promise<PageAccess> {
  try {
    return { allowed: true, actor: await requirePermission(permission) };
  } catch (error) {
    if (!(error instanceof AccessDenied)) throw error;
    if (error.problem === "unauthenticated" || !error.actor) redirect(`/sign-in?next=${encodeURIComponent(safeReturnPath(returnTo))}`);
    return { allowed: false, actor: error.actor, message: error.message };
  }
}

/** A made-up origin to resolve return paths against: only what stays on it is a path of ours. */
const HERE = "http://return-path.invalid";

/**
 * Only same-site paths: a sign-in link must never send anyone elsewhere. Judged the way browsers
 * will read it, by the URL parser (which drops tabs and newlines and reads `\` as `/`, so
 * `/\t/evil.example` is `//evil.example`), and returned as the parser wrote it; anything that
 * leaves this origin, or reads as another host once resolved again, becomes "/".
 */
export function safeReturnPath(path: string | null | undefined): string {
  if (!path?.startsWith("/")) return "/";
  const parsed = resolve(path);
  if (parsed?.origin !== HERE) return "/";
  const result = parsed.pathname + parsed.search + parsed.hash;
  // `/.//evil.example` parses to the path `//evil.example`, itself a link to another host.
  return resolve(result)?.origin === HERE ? result : "/";
}

function resolve(path: string): URL | null {
  try {
    return new URL(path, HERE);
  } catch {
    return null;
  }
}
