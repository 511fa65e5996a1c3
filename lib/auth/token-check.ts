/**
 * The bearer check every JSON route runs through lib/auth/session.ts: one indexed read by the
 * token's hash, with its owner (a user, or a service account) in the same query, and nothing cached
 * in the process. A revoke, an expiry, a changed role, a banned user or a disabled service account
 * therefore counts from the very next request on every console instance, at the cost of one read,
 * as a session's check does.
 *
 * Last used (time and address) is written at most once a minute per token, by a conditional update
 * that only the first request of the minute wins on any instance, and never on the request's path:
 * a busy CI job does not turn every read into a write.
 */
import { getDb } from "../db/client.ts";
import { isRole, type Role } from "./roles.ts";
import { hashToken } from "./token-secret.ts";
import { scopesOf, type Scope } from "./token-scopes.ts";

export const LAST_USED_RESOLUTION_MS = 60_000;

export interface TokenPrincipal {
  id: string;
  name: string;
  email: string;
  role: Role | null;
  storedLanguage?: { locale: string | null; timeZone: string | null };
  /** `owner`: whom the token acts as: a user, or a service account (which has no profile). */
  token: { id: string; name: string; prefix: string; scopes: Scope[]; owner: "user" | "service" };
}

export type TokenCheck =
  | { ok: true; principal: TokenPrincipal }
  /** `token`: the token that was named, when it exists (revoked, expired): its refusals say which. */
  | { ok: false; message: string; token?: { id: string; name: string } };

/** How a service account appears in the history (`reviewer`) and in assignment checks. */
export function serviceAccountLabel(name: string): string {
  return `service-account:${name}`;
}

export async function checkToken(token: string, address: string, now = new Date()): Promise<TokenCheck> {
  const db = await getDb();
  // One statement with both possible owners joined: a Prisma read with nested selects is one round
  // trip per relation, which made the check dearer than a session's on PostgreSQL.
  const [found] = await db.$queryRaw<RawRow[]>`
    SELECT t.id, t.name, t.prefix, t.scopes, t.expires_at AS "expiresAt", t.revoked_at AS "revokedAt", t.last_used_at AS "lastUsedAt",
      u.id AS "userId", u.name AS "userName", u.email AS "userEmail", u.role AS "userRole", u.banned AS "userBanned",
      u.locale AS "userLocale", u."timeZone" AS "userTimeZone",
      a.id AS "accountId", a.name AS "accountName", a.role AS "accountRole", a.disabled_at AS "accountDisabledAt"
    FROM api_tokens t
    LEFT JOIN auth_users u ON u.id = t.user_id
    LEFT JOIN service_accounts a ON a.id = t.service_account_id
    WHERE t.hash = ${hashToken(token)}`;
  const row = found && {
    ...found,
    expiresAt: dateOf(found.expiresAt),
    revokedAt: dateOf(found.revokedAt),
    lastUsedAt: dateOf(found.lastUsedAt),
    user: found.userId
      ? {
          id: found.userId,
          name: found.userName!,
          email: found.userEmail!,
          role: found.userRole,
          banned: Boolean(found.userBanned),
          locale: found.userLocale,
          timeZone: found.userTimeZone,
        }
      : null,
    serviceAccount: found.accountId
      ? { id: found.accountId, name: found.accountName!, role: found.accountRole!, disabled: found.accountDisabledAt !== null }
      : null,
  };
  if (!row) return { ok: false, message: "The API token is not valid." };
  const named = { id: row.id, name: row.name };
  if (row.revokedAt) return { ok: false, message: `The API token ${row.prefix}… was revoked.`, token: named };
  if (row.expiresAt && row.expiresAt <= now) return { ok: false, message: `The API token ${row.prefix}… has expired.`, token: named };
  if (row.serviceAccount?.disabled) {
    const label = serviceAccountLabel(row.serviceAccount.name);
    return { ok: false, message: `The API token ${row.prefix}… belongs to ${label}, which an admin disabled.`, token: named };
  }
  const owner = row.serviceAccount
    ? {
        id: row.serviceAccount.id,
        name: row.serviceAccount.name,
        email: serviceAccountLabel(row.serviceAccount.name),
        role: row.serviceAccount.role,
      }
    : row.user && !row.user.banned
      ? { ...row.user, storedLanguage: { locale: row.user.locale ?? null, timeZone: row.user.timeZone ?? null } }
      : null;
  if (!owner) return { ok: false, message: `The API token ${row.prefix}… belongs to an account that may no longer sign in.`, token: named };
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) void noteUse(row.id, address, now);
  return {
    ok: true,
    principal: {
      id: owner.id,
      name: owner.name,
      email: owner.email,
      role: isRole(owner.role) ? owner.role : null,
      storedLanguage: "storedLanguage" in owner ? owner.storedLanguage : undefined,
      token: {
        id: row.id,
        name: row.name,
        prefix: row.prefix,
        scopes: scopesOf(row.scopes),
        owner: row.serviceAccount ? "service" : "user",
      },
    },
  };
}

async function noteUse(id: string, address: string, now: Date): Promise<void> {
  try {
    const db = await getDb();
    const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    await db.apiToken.updateMany({
      where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: stale } }] },
      data: { lastUsedAt: now, lastUsedAddress: address.slice(0, 64) },
    });
  } catch (error) {
    console.error("[tokens] last used", error);
  }
}

type RawDate = Date | string | number | null;

interface RawRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string;
  expiresAt: RawDate;
  revokedAt: RawDate;
  lastUsedAt: RawDate;
  userId: string | null;
  userName: string | null;
  userEmail: string | null;
  userRole: string | null;
  /** SQLite answers a boolean column as 0 or 1. */
  userBanned: boolean | number | null;
  userLocale: string | null;
  userTimeZone: string | null;
  accountId: string | null;
  accountName: string | null;
  accountRole: string | null;
  accountDisabledAt: RawDate;
}

/** A raw query on SQLite may answer the stored text (or number) of a DateTime column. */
function dateOf(value: RawDate): Date | null {
  return value === null ? null : new Date(value);
}
