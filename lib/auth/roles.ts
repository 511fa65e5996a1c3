/**
 * Who may do what. Three roles: admin manages users and may also decide; reviewer approves,
 * declines and resumes; support reads everything (and filters by resource and thread) but cannot
 * decide. Client-safe: the UI uses it to hide what a role cannot do; the server enforces it.
 */
export const ROLES = ["admin", "reviewer", "support"] as const;
export type Role = (typeof ROLES)[number];

/**
 * configure: the console's own rules (expiry, review settings); manageWebhooks: where its events
 * are sent; assignOthers: give a call or thread to someone else, or take it from them (anyone who
 * decides may take what nobody holds).
 */
export type Permission = "read" | "decide" | "manageUsers" | "configure" | "manageWebhooks" | "assignOthers";

const GRANTS: Record<Permission, readonly Role[]> = {
  read: ["admin", "reviewer", "support"],
  decide: ["admin", "reviewer"],
  manageUsers: ["admin"],
  configure: ["admin"],
  manageWebhooks: ["admin"],
  assignOthers: ["admin"],
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** The roles that hold `permission` (who is emailed about calls to decide, for one). */
export function rolesWith(permission: Permission): readonly Role[] {
  return GRANTS[permission];
}

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return !!role && GRANTS[permission].includes(role);
}

export const ROLE_LABELS: Record<Role, string> = {
  admin: "Admin",
  reviewer: "Reviewer",
  support: "Support",
};
