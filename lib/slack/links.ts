/**
 * Which console account a Slack user acts as. "Link Slack" on /profile gives a one-time code
 * (createLinkCode); the user sends it to the app as `/approvals link <code>` and the signed slash
 * command (app/api/integrations/slack/commands) redeems it for their Slack user and team. Only the
 * code's SHA-256 is stored; it expires after LINK_CODE_TTL_MS and is deleted when used, so it
 * works once. A click in Slack then acts as the linked account, with that account's role now.
 */
import { createHash, randomBytes } from "node:crypto";
import { isRole } from "../auth/roles.ts";
import type { Actor } from "../auth/session.ts";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";

export const LINK_CODE_TTL_MS = 10 * 60_000;
/** Crockford's base32 without look-alikes: easy to read off a screen and type. */
const ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";
const CODE_LENGTH = 10;

const hashOf = (code: string) => createHash("sha256").update(code.trim().toUpperCase()).digest("hex");

/** A new code for `userId` (any earlier unused one of theirs stops working), and when it expires. */
export async function createLinkCode(
  userId: string,
  databaseUrl: string = databaseUrlFromEnv(),
  now: Date = new Date(),
): Promise<{ code: string; expiresAt: Date }> {
  const db = await getDb(databaseUrl);
  const bytes = randomBytes(CODE_LENGTH);
  const code = Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join("");
  const expiresAt = new Date(now.getTime() + LINK_CODE_TTL_MS);
  await db.$transaction([
    db.slackLinkCode.deleteMany({ where: { OR: [{ userId }, { expiresAt: { lt: now } }] } }),
    db.slackLinkCode.create({ data: { codeHash: hashOf(code), userId, expiresAt, createdAt: now } }),
  ]);
  return { code, expiresAt };
}

export type LinkResult = { ok: true; userId: string; email: string } | { ok: false; message: string };

/** Links the Slack user to the code's account, once: the code is deleted as it is used. */
export async function redeemLinkCode(
  code: string,
  slack: { teamId: string; slackUserId: string },
  databaseUrl: string = databaseUrlFromEnv(),
  now: Date = new Date(),
): Promise<LinkResult> {
  const refused = {
    ok: false,
    message: "That code is not valid: it is wrong, was used already or expired. Get a new one on your console profile.",
  } as const;
  if (!/^[A-Za-z0-9]{1,32}$/.test(code.trim())) return refused;
  const db = await getDb(databaseUrl);
  const codeHash = hashOf(code);
  return db.$transaction(async (tx) => {
    const row = await tx.slackLinkCode.findUnique({ where: { codeHash } });
    if (!row) return refused;
    // Deleted whatever happens next: a code is tried once.
    const { count } = await tx.slackLinkCode.deleteMany({ where: { codeHash } });
    if (count !== 1 || row.expiresAt.getTime() <= now.getTime()) return refused;
    const user = await tx.user.findUnique({ where: { id: row.userId } });
    if (!user) return refused;
    await tx.slackLink.deleteMany({ where: { OR: [{ userId: user.id }, { teamId: slack.teamId, slackUserId: slack.slackUserId }] } });
    await tx.slackLink.create({ data: { ...slack, userId: user.id, linkedAt: now } });
    return { ok: true, userId: user.id, email: user.email };
  });
}

/** The console account a Slack user is linked to, as an actor (null: not linked, or the account is gone or banned). */
export async function linkedActor(
  slack: { teamId: string; slackUserId: string },
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<Actor | null> {
  const db = await getDb(databaseUrl);
  const link = await db.slackLink.findUnique({ where: { teamId_slackUserId: slack } });
  if (!link) return null;
  const user = await db.user.findUnique({ where: { id: link.userId } });
  if (!user || user.banned) return null;
  return { id: user.id, name: user.name, email: user.email, role: isRole(user.role) ? user.role : null };
}

/** Whether the user has a linked Slack account (the profile page). */
export async function slackLinkOf(userId: string, databaseUrl: string = databaseUrlFromEnv()) {
  const db = await getDb(databaseUrl);
  return db.slackLink.findUnique({ where: { userId } });
}
