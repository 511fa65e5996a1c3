/** API tokens and service accounts as the pages and the JSON API show them (lib/auth/tokens.ts). Browser-safe. */
import type { Role } from "./roles.ts";
import type { Scope } from "./token-scopes.ts";

export interface TokenDto {
  /** Who the token acts as: a user (by email) or a service account (service-account:<name>). */
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  owner: { kind: "user" | "service"; id: string; label: string };
  createdBy: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  /** Who revoked it (an email), with revokedAt. */
  revokedBy: string | null;
  lastUsedAt: string | null;
  lastUsedAddress: string | null;
  /** disabled: neither revoked nor expired, but its service account is disabled (it works again once enabled). */
  status: "active" | "revoked" | "expired" | "disabled";
}

export interface ServiceAccountDto {
  id: string;
  name: string;
  role: Role;
  createdBy: string;
  createdAt: string;
  /** Set while an admin has it disabled: its tokens are refused until it is enabled again. */
  disabledAt: string | null;
  disabledBy: string | null;
}
