/**
 * Assignment: who a waiting tool call belongs to. A reviewer takes a call or a whole thread ("Assign
 * to me"); an admin assigns either to anyone who may decide, or takes it back. A call's own
 * assignment wins over its thread's, and a thread's covers its calls that start waiting later too.
 *
 * Assigning is announced (`call.assigned`, lib/events) in the same transaction, one event per call,
 * so webhooks and email reach the assignee. Whether anyone else may still decide is the agent's
 * setting (lib/assignments/review-settings.ts); decide() asks `assigneeCheck` before recording.
 */
import { z } from "zod";
import type { Actor } from "../auth/session.ts";
import { idSchema } from "../ids.ts";
import { can, isRole } from "../auth/roles.ts";
import { databaseUrlFromEnv, getDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { emitEvent } from "../events/outbox.ts";
import { LISTED, toConsoleRun, type ConsoleRun } from "../runs/list-suspended-runs.ts";
import { findSuspendedRun } from "../runs/run-detail.ts";

/** `assigneeId` null: take the assignment away. */
const assigneeField = idSchema("assigneeId").nullable();

export const assignCallInput = z
  .object({ runId: idSchema("runId"), toolCallId: idSchema("toolCallId"), assigneeId: assigneeField })
  .strict();
export const assignThreadInput = z.object({ threadId: idSchema("threadId"), assigneeId: assigneeField }).strict();

/** A call's assignee as the pages show it. */
export interface Assignee {
  id: string;
  name: string;
  email: string;
  /** Where it comes from: the call's own assignment or its thread's. */
  via: "call" | "thread";
  assignedBy: string;
  assignedAt: Date;
}

export type CallKey = { runId: string; toolCallId: string; threadId?: string | null };

const callKey = (runId: string, toolCallId: string) => `${runId}\u0000${toolCallId}`;

/** How many waiting calls of a thread one assignment announces; the rest are still assigned, and listed. */
const ANNOUNCED_PER_THREAD = 200;

/** The assignees of `calls` (each call's own, else its thread's); calls without one are absent. */
export async function findAssignees(db: Db, calls: CallKey[]): Promise<Map<string, Assignee>> {
  return (await findAssigneesWithThreads(db, calls, [])).calls;
}

/**
 * The assignees of `calls` (as findAssignees) and the own assignees of `threadIds` (what a thread
 * row shows), by thread id, read together: a page of threads reads each table once.
 */
export async function findAssigneesWithThreads(
  db: Db,
  calls: CallKey[],
  threadIds: string[],
): Promise<{ calls: Map<string, Assignee>; threads: Map<string, Omit<Assignee, "via">> }> {
  const runIds = [...new Set(calls.map((call) => call.runId))];
  const allThreadIds = [...new Set([...calls.flatMap((call) => (call.threadId ? [call.threadId] : [])), ...threadIds.filter(Boolean)])];
  const [own, threads] = await Promise.all([
    runIds.length ? db.callAssignment.findMany({ where: { runId: { in: runIds } } }) : [],
    allThreadIds.length ? db.threadAssignment.findMany({ where: { threadId: { in: allThreadIds } } }) : [],
  ]);
  const users = await usersById(
    db,
    [...own, ...threads].map((row) => row.assigneeId),
  );
  const ownByCall = new Map(own.map((row) => [callKey(row.runId, row.toolCallId), row]));
  const byThread = new Map(threads.map((row) => [row.threadId, row]));
  const found = new Map<string, Assignee>();
  for (const call of calls) {
    const row = ownByCall.get(callKey(call.runId, call.toolCallId));
    const threadRow = call.threadId ? byThread.get(call.threadId) : undefined;
    const chosen = row ? { row, via: "call" as const } : threadRow ? { row: threadRow, via: "thread" as const } : null;
    const user = chosen && users.get(chosen.row.assigneeId);
    if (!chosen || !user) continue;
    found.set(callKey(call.runId, call.toolCallId), {
      ...user,
      via: chosen.via,
      assignedBy: chosen.row.assignedBy,
      assignedAt: chosen.row.assignedAt,
    });
  }
  const threadAssignees = new Map<string, Omit<Assignee, "via">>();
  for (const threadId of threadIds) {
    const row = byThread.get(threadId);
    const user = row && users.get(row.assigneeId);
    if (row && user) threadAssignees.set(threadId, { ...user, assignedBy: row.assignedBy, assignedAt: row.assignedAt });
  }
  return { calls: found, threads: threadAssignees };
}

export function assigneeOf(assignees: Map<string, Assignee>, runId: string, toolCallId: string | undefined): Assignee | undefined {
  return toolCallId ? assignees.get(callKey(runId, toolCallId)) : undefined;
}

async function usersById(db: Db, ids: string[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map<string, { id: string; name: string; email: string }>();
  const users = await db.user.findMany({ where: { id: { in: unique } }, select: { id: true, name: true, email: true } });
  return new Map(users.map((user) => [user.id, user]));
}

/** Who may decide: the only people a call can be assigned to. */
export async function listAssignableUsers(databaseUrl: string = databaseUrlFromEnv()) {
  const db = await getDb(databaseUrl);
  const users = await db.user.findMany({
    where: { OR: [{ banned: null }, { banned: false }] },
    select: { id: true, name: true, email: true, role: true },
    orderBy: { email: "asc" },
  });
  return users.filter((user) => isRole(user.role) && can(user.role, "decide")).map(({ id, name, email }) => ({ id, name, email }));
}

/** The person an assignment names: must exist, not be banned, and be allowed to decide. */
async function assignableUser(db: Db, userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, name: true, email: true, role: true, banned: true } });
  if (!user || user.banned) throw new AppError("invalid_input", `No user "${userId}" who could be assigned: pick someone from the list.`);
  if (!isRole(user.role) || !can(user.role, "decide")) {
    throw new AppError("invalid_input", `${user.email} cannot be assigned: their role (${user.role ?? "none"}) may not decide tool calls.`);
  }
  return user;
}

/**
 * Who may assign what: anyone who decides may take what nobody holds, or give back what they hold;
 * only an admin takes a call or thread from someone else or assigns it to another person.
 */
function checkMayAssign(actor: Actor, current: { assigneeId: string; email: string } | undefined, assigneeId: string | null): void {
  if (can(actor.role, "assignOthers")) return;
  if (assigneeId !== null && assigneeId !== actor.id) {
    throw new AppError("forbidden", "Only an admin can assign a call to someone else: you can assign it to yourself.");
  }
  if (current && current.assigneeId !== actor.id) {
    throw new AppError("forbidden", `Already assigned to ${current.email}: only an admin can take it from them.`);
  }
}

export interface AssignmentResult {
  assignee: { id: string; name: string; email: string } | null;
  /** How many waiting calls the assignment covers now. */
  calls: number;
}

/** Assigns one waiting call to `assigneeId`, or removes its own assignment with null. */
export async function assignCall(
  target: { runId: string; toolCallId: string; assigneeId: string | null },
  actor: Actor,
  databaseUrl: string = databaseUrlFromEnv(),
  now: Date = new Date(),
): Promise<AssignmentResult> {
  const db = await getDb(databaseUrl);
  const run = await findSuspendedRun(target.runId, databaseUrl);
  const call = run?.toolCalls.find((candidate) => candidate.toolCallId === target.toolCallId);
  if (!run || !call) {
    throw new AppError("run_not_found", `Run "${target.runId}" is not waiting on tool call "${target.toolCallId}": nothing to assign.`);
  }
  const current = assigneeOf(await findAssignees(db, [{ ...target, threadId: run.threadId }]), target.runId, target.toolCallId);
  checkMayAssign(actor, current && { assigneeId: current.id, email: current.email }, target.assigneeId);
  if (target.assigneeId === null && current?.via === "thread") {
    throw new AppError("invalid_input", `This call is ${current.email}'s with its thread "${run.threadId}": unassign the thread instead.`);
  }
  const user = target.assigneeId === null ? null : await assignableUser(db, target.assigneeId);
  const key = { runId_toolCallId: { runId: target.runId, toolCallId: target.toolCallId } };
  await inTransaction(db, current?.email, async (tx) => {
    if (!user) {
      await tx.callAssignment.deleteMany({ where: { runId: target.runId, toolCallId: target.toolCallId } });
      return;
    }
    const row = { assigneeId: user.id, assignedBy: actor.email, assignedAt: now };
    // Taking a call nobody holds is a create: of two reviewers taking it at once, the second is told who won.
    if (current?.via === "call") await tx.callAssignment.update({ where: key, data: row });
    else await tx.callAssignment.create({ data: { runId: target.runId, toolCallId: target.toolCallId, ...row } });
    await announce(tx, [{ run, call }], "call", user, actor, now);
  });
  return { assignee: user && { id: user.id, name: user.name, email: user.email }, calls: 1 };
}

/** Assigns a thread (its waiting calls, and those that start waiting later) to `assigneeId`, or unassigns it with null. */
export async function assignThread(
  target: { threadId: string; assigneeId: string | null },
  actor: Actor,
  databaseUrl: string = databaseUrlFromEnv(),
  now: Date = new Date(),
): Promise<AssignmentResult> {
  const db = await getDb(databaseUrl);
  const runs = (
    await db.workflowSnapshot.findMany({
      where: { status: "suspended", threadId: target.threadId, agentId: { not: null } },
      select: LISTED,
      orderBy: { updatedAt: "asc" },
      take: ANNOUNCED_PER_THREAD,
    })
  ).map(toConsoleRun);
  const waiting = runs.flatMap((run) => run.toolCalls.map((call) => ({ run, call })));
  const existing = await db.threadAssignment.findUnique({ where: { threadId: target.threadId } });
  if (runs.length === 0 && !existing) {
    throw new AppError("run_not_found", `No call waits in thread "${target.threadId}": nothing to assign.`);
  }
  const holder = existing ? await db.user.findUnique({ where: { id: existing.assigneeId }, select: { email: true } }) : null;
  checkMayAssign(actor, existing && holder ? { assigneeId: existing.assigneeId, email: holder.email } : undefined, target.assigneeId);
  const user = target.assigneeId === null ? null : await assignableUser(db, target.assigneeId);
  await inTransaction(db, holder?.email, async (tx) => {
    if (!user) {
      await tx.threadAssignment.deleteMany({ where: { threadId: target.threadId } });
      return;
    }
    const row = { assigneeId: user.id, assignedBy: actor.email, assignedAt: now };
    if (existing) await tx.threadAssignment.update({ where: { threadId: target.threadId }, data: row });
    else await tx.threadAssignment.create({ data: { threadId: target.threadId, ...row } });
    // A call with an assignment of its own stays with its assignee: only the others are announced.
    const own = await tx.callAssignment.findMany({
      where: { runId: { in: runs.map((run) => run.runId) } },
      select: { runId: true, toolCallId: true },
    });
    const held = new Set(own.map((row) => callKey(row.runId, row.toolCallId)));
    const announced = waiting.filter(({ run, call }) => call.toolCallId && !held.has(callKey(run.runId, call.toolCallId)));
    await announce(tx, announced, "thread", user, actor, now);
  });
  return { assignee: user && { id: user.id, name: user.name, email: user.email }, calls: waiting.length };
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** Runs `work` in a transaction; a concurrent assignment of the same call or thread comes back as a clear conflict. */
async function inTransaction(db: Db, previousEmail: string | undefined, work: (tx: Tx) => Promise<void>): Promise<void> {
  try {
    await db.$transaction(work);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "P2002" || code === "P2025") {
      throw new AppError(
        "assignment_conflict",
        `Somebody assigned it at the same moment${previousEmail ? ` (it was ${previousEmail}'s)` : ""}: reload to see who holds it.`,
      );
    }
    throw error;
  }
}

/**
 * One `call.assigned` per call. A thread's calls say so (`assignedWith: "thread"`, their position
 * and count), so that a receiver can tell them apart, and email mails the assignee once per thread.
 */
async function announce(
  tx: Tx,
  calls: Array<{
    run: Pick<ConsoleRun, "runId" | "agentId" | "threadId" | "resourceId" | "suspendedAt">;
    call: ConsoleRun["toolCalls"][number];
  }>,
  assignedWith: "call" | "thread",
  user: { id: string; email: string },
  actor: Actor,
  now: Date,
): Promise<void> {
  for (const [index, { run, call }] of calls.entries()) {
    await emitEvent(
      tx,
      "call.assigned",
      {
        runId: run.runId,
        toolCallId: call.toolCallId,
        toolName: call.path?.at(-1) ?? call.toolName,
        agentId: run.agentId,
        threadId: run.threadId ?? null,
        resourceId: run.resourceId ?? null,
        waitingSince: run.suspendedAt.toISOString(),
        assigneeId: user.id,
        assigneeEmail: user.email,
        assignedBy: actor.email,
        assignedWith,
        ...(assignedWith === "thread" ? { threadIndex: index, threadCalls: calls.length } : {}),
      },
      now,
    );
  }
}

/** Calls that no longer wait keep no assignment: the maintenance loop removes theirs. */
export async function pruneCallAssignments(databaseUrl: string = databaseUrlFromEnv()): Promise<number> {
  const db = await getDb(databaseUrl);
  return db.$executeRaw`
    DELETE FROM "call_assignments" WHERE NOT EXISTS (
      SELECT 1 FROM "workflow_snapshots" AS "w" WHERE "w"."run_id" = "call_assignments"."run_id" AND "w"."status" = 'suspended'
    )`;
}
