/**
 * What an API token may be used for. A token never acts above its principal's role (lib/auth/roles.ts):
 * a permission needs both the role and the scope that covers it. `admin` covers every permission, as
 * the admin role does. Client-safe: /admin/tokens and /profile list the scopes from here.
 */
import { can, type Permission, type Role } from "./roles.ts";

export const SCOPES = ["queue:read", "decisions:write", "rules:write", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

const SCOPE_OF: Record<Permission, Scope> = {
  read: "queue:read",
  decide: "decisions:write",
  configure: "rules:write",
  manageUsers: "admin",
  manageWebhooks: "admin",
  assignOthers: "admin",
};

export function isScope(value: unknown): value is Scope {
  return typeof value === "string" && (SCOPES as readonly string[]).includes(value);
}

/** The scope a token needs for `permission`. */
export function scopeFor(permission: Permission): Scope {
  return SCOPE_OF[permission];
}

export function scopesAllow(scopes: readonly string[], permission: Permission): boolean {
  return scopes.includes("admin") || scopes.includes(SCOPE_OF[permission]);
}

/** Stored space-separated, in SCOPES order, each once. */
export function scopesText(scopes: readonly Scope[]): string {
  return SCOPES.filter((scope) => scopes.includes(scope)).join(" ");
}

export function scopesOf(text: string): Scope[] {
  return text.split(" ").filter(isScope);
}

/** Whether a principal of `role` could ever use `scope`: a token is not given a scope its role makes useless. */
export function scopeUsableBy(role: Role | null, scope: Scope): boolean {
  return (Object.keys(SCOPE_OF) as Permission[]).some(
    (permission) => can(role, permission) && (scope === "admin" ? role === "admin" : SCOPE_OF[permission] === scope),
  );
}
