/** The access check at the top of every server action: an ActionError instead of a thrown one. */
import { AccessDenied, requirePermission, type Actor, type NamedToken } from "../auth/session.ts";
import type { Permission } from "../auth/roles.ts";
import type { ActionError } from "./result.ts";

/** `token`: a refused bearer token that exists (revoked, expired), for the refusal's audit row. */
export type Authorization = { ok: true; actor: Actor } | { ok: false; error: ActionError; actor: Actor | null; token?: NamedToken };

export async function authorize(permission: Permission): Promise<Authorization> {
  try {
    return { ok: true, actor: await requirePermission(permission) };
  } catch (error) {
    if (error instanceof AccessDenied)
      return { ok: false, actor: error.actor, token: error.token, error: { code: error.problem, message: error.message } };
    throw error;
  }
}
