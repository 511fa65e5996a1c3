/**
 * API tokens (/admin/tokens, /profile, their JSON routes): created, listed and revoked here; checked
 * on each request in token-check.ts; the service accounts some of them belong to are in
 * service-accounts.ts. A token is answered in full once, when it is created; afterwards only its
 * hash and prefix exist. Revoking sets revoked_at, which the very next check on any instance reads:
 * there is no cache to wait for.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { textCheck } from "../ids.ts";
import { unstorableTextProblem } from "../safe-text.ts";
import type { Role } from "./roles.ts";
import type { Actor } from "./session.ts";
import { serviceAccountLabel } from "./token-check.ts";
import { SCOPES, scopesOf, scopesText, scopeUsableBy } from "./token-scopes.ts";
import type { AccessSubject, TokenDto } from "./token-dto.ts";
import { newTokenSecret } from "./token-secret.ts";

const MAX_EXPIRY_DAYS = 3650;

export const newTokenInput = z
  .object({
    name: z
      .string({ error: "name is required" })
      .trim()
      .min(1, "name is required")
      .max(100, "name is longer than 100 characters")
      .superRefine(textCheck("name", unstorableTextProblem)),
    scopes: z
      .array(z.enum(SCOPES, { error: `each scope must be one of ${SCOPES.join(", ")}` }), { error: "scopes must be a list" })
      .min(1, "choose at least one scope")
      .max(SCOPES.length),
    expiresInDays: z
      .number({ error: "expiresInDays must be a number of days" })
      .int("expiresInDays must be a whole number of days")
      .min(1, "expiresInDays must be at least 1")
      .max(MAX_EXPIRY_DAYS, `expiresInDays must be at most ${MAX_EXPIRY_DAYS}`)
      .nullish(),
  })
  .strict();

export const tokenIdInput = z.object({ id: z.string().min(1).max(64).superRefine(textCheck("id", unstorableTextProblem)) }).strict();

export type NewToken = z.output<typeof newTokenInput>;

/** Who a new token acts as: a user (with their role, read at each request) or a service account. */
export type TokenOwner = { userId: string; role: Role | null } | { serviceAccountId: string };

/**
 * A token, answered with its secret this once, its audit row written in the same transaction. An API
 * token cannot make another: a leaked one must not outlive its revoke.
 */
export async function createToken(
  input: NewToken,
  owner: TokenOwner,
  creator: Actor,
  record: AccessRecorder,
  databaseUrl = databaseUrlFromEnv(),
) {
  if (creator.credential?.method === "token")
    throw new AppError("forbidden", "An API token cannot create tokens: sign in to the console to create one.");
  const db = await getDb(databaseUrl);
  let role = "role" in owner ? owner.role : null;
  if ("serviceAccountId" in owner) {
    const account = await db.serviceAccount.findUnique({ where: { id: owner.serviceAccountId }, select: { role: true } });
    if (!account) throw new AppError("service_account_not_found", `No service account "${owner.serviceAccountId.slice(0, 100)}".`);
    role = account.role as Role;
  }
  const useless = input.scopes.filter((scope) => !scopeUsableBy(role, scope));
  if (useless.length > 0) {
    throw new AppError(
      "invalid_input",
      `The role ${role ?? "none"} cannot use the scope ${useless.join(", ")}: a token never acts above its owner's role.`,
    );
  }
  const secret = newTokenSecret();
  const now = new Date();
  const row = await db.$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: {
        id: `tok_${randomUUID()}`,
        name: input.name,
        prefix: secret.prefix,
        hash: secret.hash,
        scopes: scopesText(input.scopes),
        userId: "userId" in owner ? owner.userId : null,
        serviceAccountId: "serviceAccountId" in owner ? owner.serviceAccountId : null,
        createdBy: creator.email,
        createdAt: now,
        expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000) : null,
      },
      select: TOKEN_SELECT,
    });
    const made = toDto(created, now);
    const expiry = made.expiresAt ? `expires ${made.expiresAt}` : "never expires";
    await record(
      tx,
      {
        message: `Created the API token "${made.name}" (${made.prefix}…, ${made.id}) of ${made.owner.label}: scopes ${made.scopes.join(", ")}; ${expiry}.`,
        subject: tokenSubject(made),
      },
      now,
    );
    return created;
  });
  return { ...toDto(row, now), token: secret.token };
}

/** Every token (admins), or only `userId`'s own (profile), newest first. */
export async function listTokens({ userId }: { userId?: string } = {}, databaseUrl = databaseUrlFromEnv()): Promise<TokenDto[]> {
  const db = await getDb(databaseUrl);
  const rows = await db.apiToken.findMany({ where: userId ? { userId } : {}, orderBy: { createdAt: "desc" }, select: TOKEN_SELECT });
  const now = new Date();
  return rows.map((row) => toDto(row, now));
}

/**
 * Writes the audit row of an access change (a sentence saying what changed) in the transaction that
 * made it. lib/actions passes it in (lib/audit/access-changes.ts): lib/auth sits below lib/audit.
 */
export type AccessRecorder = (
  tx: Pick<Db, "auditEvent">,
  change: { message: string; subject: AccessSubject },
  at: Date,
) => Promise<unknown>;

/** A token as its access changes' rows name it: never its secret or hash. */
function tokenSubject(token: TokenDto): AccessSubject {
  const { id, name, prefix, scopes, expiresAt, owner } = token;
  return { kind: "token", id, name, prefix, scopes, expiresAt, owner };
}

/**
 * Revokes a token (admins: any; otherwise only your own), with its audit row in the same transaction.
 * Revoking a revoked token changes nothing and writes no row: two revokes at the same moment, on two
 * instances, revoke it once, and both answer the token as revoked, by the first, then.
 */
export async function revokeToken(
  id: string,
  actor: Actor,
  { anyOwner, record }: { anyOwner: boolean; record: AccessRecorder },
  databaseUrl = databaseUrlFromEnv(),
) {
  const db = await getDb(databaseUrl);
  const where = anyOwner ? { id } : { id, userId: actor.id };
  const now = new Date();
  await db.$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({
      where: { ...where, revokedAt: null },
      data: { revokedAt: now, revokedBy: actor.email },
    });
    if (count === 0) return;
    const revoked = toDto(await tx.apiToken.findUniqueOrThrow({ where: { id }, select: TOKEN_SELECT }), now);
    await record(
      tx,
      {
        message: `Revoked the API token "${revoked.name}" (${revoked.prefix}…, ${revoked.id}) of ${revoked.owner.label}.`,
        subject: tokenSubject(revoked),
      },
      now,
    );
  });
  const row = await db.apiToken.findFirst({ where, select: TOKEN_SELECT });
  if (!row) throw new AppError("token_not_found", `No API token "${id.slice(0, 100)}"${anyOwner ? "" : " of yours"}.`);
  return toDto(row, new Date());
}

const TOKEN_SELECT = {
  id: true,
  name: true,
  prefix: true,
  scopes: true,
  createdBy: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  revokedBy: true,
  lastUsedAt: true,
  lastUsedAddress: true,
  user: { select: { id: true, email: true } },
  serviceAccount: { select: { id: true, name: true, disabledAt: true } },
} as const;

type TokenRow = {
  id: string;
  name: string;
  prefix: string;
  scopes: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokedBy: string | null;
  lastUsedAt: Date | null;
  lastUsedAddress: string | null;
  user: { id: string; email: string } | null;
  serviceAccount: { id: string; name: string; disabledAt: Date | null } | null;
};

function toDto(row: TokenRow, now: Date): TokenDto {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: scopesOf(row.scopes),
    owner: row.serviceAccount
      ? { kind: "service", id: row.serviceAccount.id, label: serviceAccountLabel(row.serviceAccount.name) }
      : { kind: "user", id: row.user?.id ?? "", label: row.user?.email ?? "" },
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: iso(row.expiresAt),
    revokedAt: iso(row.revokedAt),
    revokedBy: row.revokedBy,
    lastUsedAt: iso(row.lastUsedAt),
    lastUsedAddress: row.lastUsedAddress,
    status: row.revokedAt
      ? "revoked"
      : row.expiresAt && row.expiresAt <= now
        ? "expired"
        : row.serviceAccount?.disabledAt
          ? "disabled"
          : "active",
  };
}
