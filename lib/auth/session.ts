/**
 * The signed-in person behind a request, and the checks every page, route and action runs.
 * Enforcement happens here, on the server; the UI only hides what a role cannot do.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { headers } from "next/headers";
import { cache } from "react";
import { AppError } from "../errors.ts";
import { getAuth } from "./auth.ts";
import { can, isRole, type Permission, type Role } from "./roles.ts";

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
}

export type AccessProblem = "unauthenticated" | "forbidden";

export class AccessDenied extends AppError {
  constructor(
    readonly problem: AccessProblem,
    message: string,
    readonly actor: Actor | null = null,
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
  const fixed = fixedActors.getStore();
  if (fixed) return fixed;
  return actorOfRequest();
}

/**
 * The session behind the request, looked up once per request: a page asked for it three times (the
 * layout, the reader's language, the page's access check), each a signed-cookie check and a query.
 * React's `cache` lasts one server render; in a route handler it is not there and this runs per call.
 */
const actorOfRequest = cache(async (): Promise<Actor | null> => {
  let requestHeaders: Headers;
  try {
    requestHeaders = await headers();
  } catch {
    return null; // not in a request, and nobody was named with runAs
  }
  const session = await (await getAuth()).api.getSession({ headers: requestHeaders });
  if (!session || session.user.banned) return null;
  return {
    id: session.user.id,
    name: session.user.name,
    email: session.user.email,
    role: isRole(session.user.role) ? session.user.role : null,
    storedLanguage: { locale: session.user.locale ?? null, timeZone: session.user.timeZone ?? null },
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
  const actor = await currentActor();
  if (!actor) throw new AccessDenied("unauthenticated", "Sign in to continue.");
  if (!can(actor.role, permission)) {
    throw new AccessDenied("forbidden", `Your role (${actor.role ?? "none"}) may not ${WHAT[permission]}.`, actor);
  }
  return actor;
}

/** How a person appears in the decision history. */
export function actorLabel(actor: Actor): string {
  return actor.email;
}
