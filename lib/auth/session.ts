/**
 * The signed-in person behind a request, and the checks every page, route and action runs.
 * Enforcement happens here, on the server; the UI only hides what a role cannot do.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { headers } from "next/headers";
import { cache } from "react";
import { AppError } from "../errors.ts";
import { clientAddress } from "../http/client-address.ts";
import { getAuth } from "./auth.ts";
import { can, isRole, type Permission, type Role } from "./roles.ts";
import { checkToken } from "./token-check.ts";
import { scopeFor, scopesAllow, type Scope } from "./token-scopes.ts";
import { readBearer } from "./token-secret.ts";

export interface Actor {
  id: string;
  name: string;
  email: string;
  /** Null for an account without a known role: it may sign in but do nothing. */
  role: Role | null;
  /**
   * The user's stored language and time zone columns (chosen on /profile), when read with the
   * session; absent for an actor named with runAs. lib/i18n/request-language.ts reads them.
   */
  storedLanguage?: { locale: string | null; timeZone: string | null };
  /** How the request proved who it is; absent for an actor named with runAs. */
  credential?: Credential;
}

/**
 * password | sso: a session signed in that way; session: one signed in before sessions kept it;
 * token: an API token (lib/auth/token-check.ts), which then acts with its scopes only.
 */
export type AuthMethod = "password" | "sso" | "session" | "token";

export interface Credential {
  method: AuthMethod;
  token?: { id: string; name: string; prefix: string; scopes: Scope[]; owner: "user" | "service" };
}

/** A token the request named that was refused (revoked, expired): its refusal row says which. */
export type NamedToken = { id: string; name: string };

export type AccessProblem = "unauthenticated" | "forbidden";

export class AccessDenied extends AppError {
  constructor(
    readonly problem: AccessProblem,
    message: string,
    readonly actor: Actor | null = null,
    readonly token?: NamedToken,
  ) {
    super(problem, message);
  }
}

const fixedActors = ((globalThis as { __approvalsConsoleActors?: AsyncLocalStorage<Actor> }).__approvalsConsoleActors ??=
  new AsyncLocalStorage<Actor>());

/**
 * Runs `work` as `actor`, for server-side callers without an HTTP request (scripts, tests). Never
 * reachable from a browser: it is a function call, not a header or a cookie.
 */
export function runAs<T>(actor: Actor, work: () => T): T {
  return fixedActors.run(actor, work);
}

export async function currentActor(): Promise<Actor | null> {
  return (await currentIdentity()).actor;
}

/** Who asks, or why a bearer token they sent was refused. */
interface Identity {
  actor: Actor | null;
  problem?: string;
  token?: NamedToken;
}

async function currentIdentity(): Promise<Identity> {
  const fixed = fixedActors.getStore();
  if (fixed) return { actor: fixed };
  return identityOfRequest();
}

/**
 * The session behind the request, looked up once per request: a page asked for it three times (the
 * layout, the reader's language, the page's access check), each a signed-cookie check and a query.
 * React's `cache` lasts one server render; in a route handler it is not there and this runs per call.
 *
 * A request with `Authorization: Bearer …` is the token's and only the token's: its cookie is not
 * read at all, so a script that also carries a browser's cookie never gets the cookie's rights when
 * its token is wrong, revoked, expired or lacks a scope. Another scheme (a proxy's Basic) is ignored.
 */
const identityOfRequest = cache(async (): Promise<Identity> => {
  let requestHeaders: Headers;
  try {
    requestHeaders = await headers();
  } catch {
    return { actor: null }; // not in a request, and nobody was named with runAs
  }
  const bearer = readBearer(requestHeaders.get("authorization"));
  if (bearer.kind === "malformed") return { actor: null, problem: bearer.message };
  if (bearer.kind === "token") {
    const checked = await checkToken(bearer.token, clientAddress(requestHeaders));
    if (!checked.ok) return { actor: null, problem: checked.message, token: checked.token };
    const { token, ...principal } = checked.principal;
    return { actor: { ...principal, credential: { method: "token", token } } };
  }
  const session = await (await getAuth()).api.getSession({ headers: requestHeaders });
  if (!session || session.user.banned) return { actor: null };
  const method = (session.session as { authMethod?: string | null }).authMethod;
  return {
    actor: {
      id: session.user.id,
      name: session.user.name,
      email: session.user.email,
      role: isRole(session.user.role) ? session.user.role : null,
      storedLanguage: { locale: session.user.locale ?? null, timeZone: session.user.timeZone ?? null },
      credential: { method: method === "password" || method === "sso" ? method : "session" },
    },
  };
});

const WHAT: Record<Permission, string> = {
  read: "see pending runs",
  decide: "approve, decline or resume tool calls",
  manageUsers: "manage users",
  configure: "change the console's rules",
  manageWebhooks: "manage webhooks",
  assignOthers: "assign calls to others",
};

/** The actor, if signed in with `permission`; otherwise AccessDenied saying why. */
export async function requirePermission(permission: Permission): Promise<Actor> {
  const { actor, problem, token } = await currentIdentity();
  if (!actor) throw new AccessDenied("unauthenticated", problem ?? "Sign in to continue.", null, token);
  if (!can(actor.role, permission)) {
    throw new AccessDenied("forbidden", `Your role (${actor.role ?? "none"}) may not ${WHAT[permission]}.`, actor);
  }
  const scopes = actor.credential?.token?.scopes;
  if (scopes && !scopesAllow(scopes, permission)) {
    throw new AccessDenied(
      "forbidden",
      `This API token may not ${WHAT[permission]}: it needs the ${scopeFor(permission)} scope (it has ${scopes.join(", ")}).`,
      actor,
    );
  }
  return actor;
}

/** How a person appears in the decision history. */
export function actorLabel(actor: Actor): string {
  return actor.email;
}
