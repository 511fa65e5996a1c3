/**
 * The queue's assignee filter ("assigned=me") as SQL on workflow_snapshots, per run like every filter
 * of the queue (lib/runs/list-threads.ts): a run's calls are the reviewer's through their own
 * assignment, or through their thread's unless someone else holds the call.
 */
import { sqltag as sql, type Sql } from "@prisma/client/runtime/client";

/**
 * Runs with a call assigned to `userId`: its own assignment, or its thread's unless the call is
 * someone else's. Per run, like every filter here (a run's parallel calls share it). Used where the
 * threads are known (a page's calls): on SQLite the run id is wrapped so that it reads those threads
 * by their index and checks this per run, rather than looking up every run of the reviewer by id.
 */
export function assignedToCondition(userId: string, sqlite: boolean): Sql {
  return sql`${sqlite ? sql`COALESCE("run_id", "run_id")` : sql`"run_id"`} IN (
    ${ownCallRuns(userId)}
    UNION
    SELECT "run_id" FROM "workflow_snapshots" WHERE "status" = 'suspended' AND ${heldThreadRunCondition(userId)})`;
}

/** The runs of the calls assigned to `userId` themselves. */
export function ownCallRuns(userId: string): Sql {
  return sql`SELECT "run_id" FROM "call_assignments" WHERE "assignee_id" = ${userId}`;
}

/** On workflow_snapshots: a run of a thread assigned to `userId` whose calls are no one else's. */
export function heldThreadRunCondition(userId: string): Sql {
  return sql`"thread_id" IN (SELECT "thread_id" FROM "thread_assignments" WHERE "assignee_id" = ${userId})
    AND "run_id" NOT IN (SELECT "run_id" FROM "call_assignments" WHERE "assignee_id" <> ${userId})`;
}
