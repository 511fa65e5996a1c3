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

/** Only same-site paths: a sign-in link must never send anyone elsewhere. */
export function safeReturnPath(path: string | null | undefined): string {
  return path && path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : "/";
}
