/**
 * Service accounts (/admin/tokens, /api/admin/service-accounts): named principals for machines, each
 * with a role of its own, that act only through their API tokens (tokens.ts). An admin may disable
 * one: its tokens are refused from the very next request on every instance (token-check.ts reads
 * `disabled_at` in the same query as the token), and work again once it is enabled, unless revoked
 * or expired meanwhile. Both are written to the audit log, once, whoever asks twice at once.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { idSchema } from "../ids.ts";
import { ROLES, type Role } from "./roles.ts";
import type { Actor } from "./session.ts";
import { serviceAccountLabel } from "./token-check.ts";
import type { ServiceAccountDto } from "./token-dto.ts";
import type { AccessRecorder } from "./tokens.ts";

export const newServiceAccountInput = z
  .object({
    name: z
      .string({ error: "name is required" })
      .regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, "name must be 1 to 63 lowercase letters, digits, dots, dashes or underscores"),
    role: z.enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}` }),
  })
  .strict();

export const serviceAccountStateInput = z
  .object({ id: idSchema("id"), disabled: z.boolean({ error: "disabled must be true or false" }) })
  .strict();

/** A service account, its audit row written in the same transaction (it has no token yet: each token's creation is a row of its own). */
export async function createServiceAccount(
  input: z.output<typeof newServiceAccountInput>,
  creator: Actor,
  record: AccessRecorder,
  databaseUrl = databaseUrlFromEnv(),
) {
  if (creator.credential?.method === "token")
    throw new AppError("forbidden", "An API token cannot create service accounts: sign in to the console.");
  const db = await getDb(databaseUrl);
  const existing = await db.serviceAccount.findUnique({ where: { name: input.name }, select: { id: true } });
  if (existing) throw new AppError("service_account_exists", `A service account named "${input.name}" exists already.`);
  try {
    const now = new Date();
    const row = await db.$transaction(async (tx) => {
      const created = await tx.serviceAccount.create({
        data: { id: `sa_${randomUUID()}`, name: input.name, role: input.role, createdBy: creator.email, createdAt: now },
      });
      await record(
        tx,
        {
          message: `Created ${serviceAccountLabel(created.name)} (${created.id}) with the role ${created.role}.`,
          subject: { kind: "service-account", id: created.id, name: created.name, role: input.role },
        },
        now,
      );
      return created;
    });
    return serviceAccountDto(row);
  } catch (error) {
    // Two admins creating the same name at once: the unique index lets one through.
    if ((error as { code?: string }).code === "P2002")
      throw new AppError("service_account_exists", `A service account named "${input.name}" exists already.`);
    throw error;
  }
}

export async function listServiceAccounts(databaseUrl = databaseUrlFromEnv()): Promise<ServiceAccountDto[]> {
  const db = await getDb(databaseUrl);
  return (await db.serviceAccount.findMany({ orderBy: { name: "asc" } })).map(serviceAccountDto);
}

/**
 * Disables a service account (its tokens stop working at once) or enables it again. Asking for the
 * state it is in changes nothing and writes no audit row; the answer then says who put it there and
 * when. Enabling gives access back, so, like making a token, it takes a session: a leaked token must
 * not be able to undo the disabling that was meant to stop it.
 */
export async function setServiceAccountDisabled(
  { id, disabled }: z.output<typeof serviceAccountStateInput>,
  actor: Actor,
  record: AccessRecorder,
  databaseUrl = databaseUrlFromEnv(),
): Promise<ServiceAccountDto> {
  if (!disabled && actor.credential?.method === "token")
    throw new AppError("forbidden", "An API token cannot enable a service account: sign in to the console.");
  const db = await getDb(databaseUrl);
  const now = new Date();
  await db.$transaction(async (tx) => {
    const { count } = await tx.serviceAccount.updateMany({
      where: { id, disabledAt: disabled ? null : { not: null } },
      data: disabled ? { disabledAt: now, disabledBy: actor.email } : { disabledAt: null, disabledBy: null },
    });
    if (count === 0) return;
    const account = await tx.serviceAccount.findUniqueOrThrow({
      where: { id },
      select: { name: true, role: true, _count: { select: { tokens: true } } },
    });
    const label = serviceAccountLabel(account.name);
    await record(
      tx,
      {
        message: disabled
          ? `Disabled ${label}: its API tokens (${account._count.tokens}) are refused until it is enabled.`
          : `Enabled ${label}: its API tokens that are neither revoked nor expired work again.`,
        subject: { kind: "service-account", id, name: account.name, role: account.role as Role },
      },
      now,
    );
  });
  const row = await db.serviceAccount.findUnique({ where: { id } });
  if (!row) throw new AppError("service_account_not_found", `No service account "${id.slice(0, 100)}".`);
  return serviceAccountDto(row);
}

function serviceAccountDto(row: {
  id: string;
  name: string;
  role: string;
  createdBy: string;
  createdAt: Date;
  disabledAt: Date | null;
  disabledBy: string | null;
}): ServiceAccountDto {
  return {
    id: row.id,
    name: row.name,
    role: row.role as Role,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledBy: row.disabledBy,
  };
}
