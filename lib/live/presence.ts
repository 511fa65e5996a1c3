/**
 * Presence: who has a waiting call open right now, shown beside "being decided by". A tab tells the
 * console which calls it has open (POST /api/events/presence, naming the live stream its `ready`
 * event gave it); everyone's streams are told through the change feed (a `presence` change carries
 * the call's viewers). What it says is checked here, not taken from the tab: the viewer is the
 * signed-in user, a call that does not wait is left out, a tab names at most
 * MAX_OPEN_CALLS_PER_STREAM calls and a user has at most LIVE_PRESENCE_CALLS_PER_USER open at once
 * (a call open in two tabs counts twice).
 * A row lives only as long as its stream: the instance holding the stream pushes its expiry on and
 * deletes its rows when it ends; an instance that dies leaves rows that expire within
 * PRESENCE_TTL_MS and are then no one's.
 */
import { z } from "zod";
import type { Actor } from "../auth/session.ts";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { idSchema } from "../ids.ts";
import { numericSetting } from "../numeric-settings.mjs";
import type { PresenceViewerDto } from "./types.ts";

/** A row not pushed on for this long belongs to a stream no instance holds any more. */
export const PRESENCE_TTL_MS = 60_000;
/** How often an instance pushes its streams' rows on: well inside the TTL. */
export const PRESENCE_REFRESH_MS = 20_000;
export const MAX_OPEN_CALLS_PER_STREAM = 20;

const callRef = z.object({ runId: idSchema("runId"), toolCallId: idSchema("toolCallId") }).strict();

export const presenceInput = z
  .object({
    stream: z.uuid({ error: "stream must be the `stream` of the live stream's ready event" }),
    calls: z.array(callRef).max(MAX_OPEN_CALLS_PER_STREAM, `calls: a tab may have at most ${MAX_OPEN_CALLS_PER_STREAM} calls open at once`),
  })
  .strict();
export type PresenceInput = z.infer<typeof presenceInput>;

/** What POST /api/events/presence answers: each call the tab has open (that waits), with who has it open. */
export const presenceAnswerSchema = z.object({
  calls: z.array(
    z.object({
      runId: z.string(),
      toolCallId: z.string(),
      viewers: z
        .array(z.object({ userId: z.string(), name: z.string() }))
        .meta({ description: "Everyone who has the call open now, the caller too; first opener first." }),
    }),
  ),
});
export type CallViewers = z.infer<typeof presenceAnswerSchema>["calls"][number];

const keyOf = (runId: string, toolCallId: string) => `${runId}\u0000${toolCallId}`;

/**
 * Sets the calls open in one of the actor's streams to `calls` (those that wait; others are left
 * out) and answers who has each of them open now. Only the actor's own rows of that stream change,
 * whatever stream id they name. Rows already there keep their opening time (no change in the feed).
 */
export async function setPresence(db: Db, actor: Actor, { stream, calls }: PresenceInput, now = new Date()): Promise<CallViewers[]> {
  const wanted = new Map(calls.map((call) => [keyOf(call.runId, call.toolCallId), call]));
  const waiting =
    wanted.size === 0
      ? []
      : await db.pendingToolCall.findMany({
          where: { OR: [...wanted.values()].map(({ runId, toolCallId }) => ({ runId, toolCallId })) },
          select: { runId: true, toolCallId: true },
        });
  const open = new Map(waiting.map((call) => [keyOf(call.runId, call.toolCallId), call]));
  const expiresAt = new Date(now.getTime() + PRESENCE_TTL_MS);
  await db.$transaction(async (tx) => {
    const mine = { streamId: stream, userId: actor.id };
    const held = await tx.callPresence.findMany({ where: mine, select: { runId: true, toolCallId: true } });
    const closed = held.filter((row) => !open.has(keyOf(row.runId, row.toolCallId)));
    if (closed.length > 0) {
      await tx.callPresence.deleteMany({ where: { ...mine, OR: closed.map(({ runId, toolCallId }) => ({ runId, toolCallId })) } });
    }
    const heldKeys = new Set(held.map((row) => keyOf(row.runId, row.toolCallId)));
    const added = [...open.entries()].filter(([key]) => !heldKeys.has(key)).map(([, call]) => call);
    if (added.length > 0) {
      const elsewhere = await tx.callPresence.count({ where: { userId: actor.id, streamId: { not: stream }, expiresAt: { gt: now } } });
      const most = numericSetting("LIVE_PRESENCE_CALLS_PER_USER");
      if (elsewhere + open.size > most) {
        throw new AppError(
          "rate_limited",
          `You have ${elsewhere} calls open in other tabs; one person may have at most ${most} open at once (LIVE_PRESENCE_CALLS_PER_USER): close some.`,
        );
      }
      await tx.callPresence.createMany({
        data: added.map(({ runId, toolCallId }) => ({ ...mine, runId, toolCallId, userName: actor.name, openedAt: now, expiresAt })),
      });
    }
    await tx.callPresence.updateMany({ where: mine, data: { expiresAt } });
  });
  const viewers = await viewersOf(db, [...open.values()], now);
  return [...open.values()].map(({ runId, toolCallId }) => ({ runId, toolCallId, viewers: viewers.get(keyOf(runId, toolCallId)) ?? [] }));
}

/** Who has each of these calls open now (each person once, first opener first), by call key. */
export async function viewersOf(
  db: Db,
  calls: Array<{ runId: string; toolCallId: string }>,
  now = new Date(),
): Promise<Map<string, PresenceViewerDto[]>> {
  const found = new Map<string, PresenceViewerDto[]>();
  if (calls.length === 0) return found;
  const rows = await db.callPresence.findMany({
    where: { OR: calls.map(({ runId, toolCallId }) => ({ runId, toolCallId })), expiresAt: { gt: now } },
    orderBy: [{ openedAt: "asc" }, { userId: "asc" }],
    select: { runId: true, toolCallId: true, userId: true, userName: true },
  });
  for (const row of rows) {
    const key = keyOf(row.runId, row.toolCallId);
    const list = found.get(key) ?? [];
    if (!list.some((viewer) => viewer.userId === row.userId)) list.push({ userId: row.userId, name: row.userName });
    found.set(key, list);
  }
  return found;
}

/** Viewers for a feed's `presence` changes, read once for all of them: what every stream is sent. */
export async function withViewers<T extends { kind: string; runId: string | null; toolCallId: string | null }>(
  db: Db,
  changes: T[],
): Promise<Array<T & { viewers?: PresenceViewerDto[] }>> {
  const calls = changes.filter((change) => change.kind === "presence" && change.runId && change.toolCallId);
  if (calls.length === 0) return changes;
  const viewers = await viewersOf(
    db,
    calls.map((change) => ({ runId: change.runId!, toolCallId: change.toolCallId! })),
  );
  return changes.map((change) =>
    change.kind === "presence" ? { ...change, viewers: viewers.get(keyOf(change.runId ?? "", change.toolCallId ?? "")) ?? [] } : change,
  );
}

/** The streams this instance holds are still here: their rows live another PRESENCE_TTL_MS. */
export async function keepPresence(db: Db, streamIds: string[], now = new Date()): Promise<void> {
  const expiresAt = new Date(now.getTime() + PRESENCE_TTL_MS);
  for (let i = 0; i < streamIds.length; i += 500) {
    await db.callPresence.updateMany({ where: { streamId: { in: streamIds.slice(i, i + 500) } }, data: { expiresAt } });
  }
}

/** A stream ended: whatever its tab had open is closed. */
export async function endPresence(db: Db, streamId: string): Promise<void> {
  await db.callPresence.deleteMany({ where: { streamId } });
}

/** Rows no instance pushed on (theirs died): deleted, which tells the streams that are left. */
export async function prunePresence(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.callPresence.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
