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

/**
 * What an access change gave or took, as its audit row's `args` keeps it (never a secret): the history
 * words it in the reader's language, the evidence lists it. Written by tokens.ts, service-accounts.ts
 * and users.ts through their AccessRecorder.
 */
export type AccessSubject =
  | { kind: "token"; id: string; name: string; prefix: string; scopes: Scope[]; expiresAt: string | null; owner: TokenDto["owner"] }
  | { kind: "service-account"; id: string; name: string; role: Role }
  | { kind: "user"; id: string; email: string; role: Role; previousRole?: Role | null };
