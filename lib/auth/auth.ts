/**
 * Sign-in with better-auth on our Prisma database: email and password out of the box, an OIDC / SSO
 * provider when OIDC_* is set. Sessions live in httpOnly cookies (Secure when the console is served
 * over https), sign-in is rate-limited in the database so every console instance shares the count
 * (per client address as server.mjs stamps it, never a header the client wrote), and nobody can
 * sign up: accounts are created by an admin (or `npm run users:create`).
 */
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { createAccessControl } from "better-auth/plugins/access";
import { admin as adminPlugin } from "better-auth/plugins/admin";
import { adminAc, defaultStatements } from "better-auth/plugins/admin/access";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { authSecretProblem } from "../configuration.mjs";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { databaseProvider } from "../db/database-url.ts";
import { CLIENT_ADDRESS_HEADER } from "../http/client-address.ts";
import { numericSetting } from "../numeric-settings.mjs";
import { processCache } from "../process-cache.ts";
import { idTextProblem, toStorableText, unstorableTextProblem } from "../safe-text.ts";
import { isRole } from "./roles.ts";

const statements = { ...defaultStatements, run: ["read", "decide"] } as const;
const accessControl = createAccessControl(statements);
const roles = {
  admin: accessControl.newRole({ ...adminAc.statements, run: ["read", "decide"] }),
  reviewer: accessControl.newRole({ run: ["read", "decide"] }),
  support: accessControl.newRole({ run: ["read"] }),
};

export const MIN_PASSWORD_LENGTH = 10;
/** Sign-in attempts per client address (lib/http/client-address.ts) and minute. */
export function signInAttemptsPerMinute(): number {
  return numericSetting("AUTH_SIGN_IN_ATTEMPTS_PER_MINUTE");
}

function authSecret(): string {
  const secret = process.env.BETTER_AUTH_SECRET;
  if (secret) return secret;
  const problem = authSecretProblem();
  if (problem) throw new Error(problem);
  // Development and the demo only: a fixed secret, so sessions survive restarts.
  return "approvals-console-development-secret-do-not-use-in-production";
}

function storableClaim(claim: unknown): string | undefined {
  return claim != null && !idTextProblem(String(claim)) ? String(claim) : undefined;
}

function oidcProviders() {
  const { OIDC_DISCOVERY_URL, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } = process.env;
  if (!OIDC_DISCOVERY_URL || !OIDC_CLIENT_ID) return [];
  return [
    genericOAuth({
      config: [
        {
          providerId: "sso",
          discoveryUrl: OIDC_DISCOVERY_URL,
          clientId: OIDC_CLIENT_ID,
          clientSecret: OIDC_CLIENT_SECRET,
          scopes: (process.env.OIDC_SCOPES ?? "openid email profile").split(/\s+/),
          pkce: true,
          // The provider's claims are looked up before any write: what the database cannot hold
          // (a NUL, a lone surrogate; PostgreSQL fails the query) must not reach even the lookup.
          // Without a usable subject or email better-auth ends the sign-in with an error code.
          accountSubject: ({ profile }) => storableClaim(profile.sub ?? profile.id) ?? "",
          mapProfileToUser: (profile) => ({ email: storableClaim(profile.email), name: toStorableText(String(profile.name ?? "")) }),
        },
      ],
    }),
  ];
}

/** The display name of the configured SSO provider, or null when SSO is off. */
export function ssoProviderName(): string | null {
  return process.env.OIDC_DISCOVERY_URL && process.env.OIDC_CLIENT_ID ? process.env.OIDC_PROVIDER_NAME || "SSO" : null;
}

/**
 * The console's own origin (the request's host: sign-in from the page that served it), plus any
 * listed in BETTER_AUTH_TRUSTED_ORIGINS. Without BETTER_AUTH_URL the console answers on whatever
 * host it is reached by (localhost, 127.0.0.1, a LAN name); an Origin naming another site never
 * matches the Host it is sent to.
 */
function trustedOrigins(request?: Request): string[] {
  const listed = (process.env.BETTER_AUTH_TRUSTED_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  const host = request?.headers.get("x-forwarded-host") ?? request?.headers.get("host");
  if (!host || process.env.BETTER_AUTH_URL) return listed;
  const protocol = request?.headers.get("x-forwarded-proto") ?? new URL(request!.url).protocol.replace(":", "");
  return [...listed, `${protocol}://${host}`];
}

async function createAuth(databaseUrl: string) {
  const db = await getDb(databaseUrl);
  return betterAuth({
    appName: "Agent approvals",
    secret: authSecret(),
    baseURL: process.env.BETTER_AUTH_URL,
    trustedOrigins: trustedOrigins,
    database: prismaAdapter(db, { provider: databaseProvider(databaseUrl) === "sqlite" ? "sqlite" : "postgresql" }),
    // A failed single sign-on lands on the sign-in page, which says so (better-auth's own error page is not served).
    onAPIError: { errorURL: "/sign-in" },
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: MIN_PASSWORD_LENGTH },
    // authMethod: how the session was signed in, read with it so each decision's audit row says so.
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      additionalFields: { authMethod: { type: "string", required: false, input: false } },
    },
    // Read with the session's user, so a page learns its reader's language without reading the user
    // again (lib/i18n/request-language.ts). Set only on /profile (lib/i18n/preferences.ts), never through better-auth.
    user: {
      additionalFields: {
        locale: { type: "string", required: false, input: false },
        timeZone: { type: "string", required: false, input: false },
      },
    },
    // better-auth keys its limits on the first of these headers holding one valid address. Only
    // server.mjs writes this one; without it (plain `next start`) there is no address, and
    // better-auth puts every client in one shared bucket: fewer attempts, never unlimited ones.
    advanced: { ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] } },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 300,
      // Starting single sign-on counts like a password attempt (better-auth would allow 3 per 10 s).
      customRules: {
        "/sign-in/email": { window: 60, max: signInAttemptsPerMinute() },
        "/sign-in/social": { window: 60, max: signInAttemptsPerMinute() },
      },
    },
    // Every write of a user, whichever better-auth path makes it (an SSO sign-in creating an account
    // from the identity provider's claims, say), holds only what the console can store and knows.
    databaseHooks: {
      user: { create: { before: async (user) => storableUser(user) }, update: { before: async (user) => storableUser(user) } },
      session: { create: { before: async (session, context) => ({ data: { ...session, authMethod: authMethodOf(context?.path) } }) } },
    },
    plugins: [
      adminPlugin({ ac: accessControl, roles, defaultRole: "support", adminRoles: ["admin"] }),
      ...oidcProviders(),
      // Lets server actions set the session cookie (sign-in from a server action).
      nextCookies(),
    ],
  });
}

/** How the endpoint that creates a session signed its user in: a password, or the SSO provider's callback. */
function authMethodOf(path: string | undefined): string | null {
  if (path?.startsWith("/sign-in/email")) return "password";
  if (path?.startsWith("/oauth2/callback") || path?.startsWith("/callback")) return "sso";
  return null;
}

/**
 * A user's fields as the console stores them: a name without NUL or lone surrogates, at most 100
 * characters (as `createUser` requires; an identity provider's claim is made storable rather than
 * refused, so its user can still sign in), and only a role of ours. An email that cannot be stored
 * refuses the write (better-auth then fails the sign-in) instead of failing in the database.
 */
function storableUser<User extends { name?: string | null; email?: string | null; role?: unknown }>(user: User) {
  if (user.email != null && unstorableTextProblem(user.email)) return false as const;
  const data: Partial<User> = {};
  if (typeof user.name === "string") data.name = toStorableText(user.name).trim().slice(0, 100) as User["name"];
  if ("role" in user && user.role != null && !isRole(user.role)) data.role = "support" as User["role"];
  return { data };
}

export type Auth = Awaited<ReturnType<typeof createAuth>>;

const instances = processCache("auth", createAuth);

/** The process-wide auth for `databaseUrl` (default: DATABASE_URL), created on first use. */
export function getAuth(databaseUrl: string = databaseUrlFromEnv()): Promise<Auth> {
  return instances(databaseUrl);
}
