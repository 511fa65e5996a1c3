/**
 * A token's secret: "aat_" and 43 characters of base64url (32 random bytes), so one SHA-256 of it is
 * all the database needs: with 256 bits of entropy nobody can guess one from its hash, and a fast
 * hash keeps a check as cheap as a session's (a password hash would cost ~100 ms per request for
 * nothing). The visible prefix (its first 12 characters) names it in lists and in the log.
 */
import { createHash, randomBytes } from "node:crypto";

const TOKEN_PATTERN = /^aat_[A-Za-z0-9_-]{43}$/;
export const PREFIX_LENGTH = 12;

export function newTokenSecret(): { token: string; prefix: string; hash: string } {
  const token = `aat_${randomBytes(32).toString("base64url")}`;
  return { token, prefix: token.slice(0, PREFIX_LENGTH), hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function isTokenShaped(text: string): boolean {
  return TOKEN_PATTERN.test(text);
}

export type BearerHeader =
  /** No Authorization header, or one of another scheme (a proxy's Basic): the cookie decides. */
  { kind: "none" } | { kind: "malformed"; message: string } | { kind: "token"; token: string };

/**
 * Reads an Authorization header. Only "Bearer" is ours; another scheme (Basic from a proxy in front of
 * the console, say) is left alone, so the session cookie still decides for such a request. A Bearer
 * header that does not hold exactly one well-formed token is refused before any database work:
 * whatever its length (a 10 KB header is answered as fast as a short one).
 */
export function readBearer(header: string | null): BearerHeader {
  if (header === null) return { kind: "none" };
  const scheme = /^\s*(\S+)/.exec(header)?.[1] ?? "";
  if (scheme.toLowerCase() !== "bearer") return { kind: "none" };
  const token = /^\s*bearer +(\S+) *$/i.exec(header)?.[1];
  if (!token || !isTokenShaped(token)) {
    return { kind: "malformed", message: "The Authorization header must be `Bearer aat_…` with one API token." };
  }
  return { kind: "token", token };
}
