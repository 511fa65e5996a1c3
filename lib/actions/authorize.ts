/** The access check at the top of every server action: an ActionError instead of a thrown one. */
import { AccessDenied, requirePermission, type Actor } from "../auth/session.ts";
import type { Permission } from "../auth/roles.ts";
import type { ActionError } from "./result.ts";

export type Authorization = { ok: true; actor: Actor } | { ok: false; error: ActionError; actor: Actor | null };

export async function authorize(permission: Permission): Promise<Authorization> {
  try {
    return { ok: true, actor: await requirePermission(permission) };
  } catch (error) {
    if (error instanceof AccessDenied) return { ok: false, actor: error.actor, error: { code: error.problem, message: error.message } };
    throw error;
  }
}
