/**
 * The store's summaries of a backlog generated in SQL, filled in bulk after its rows instead of row by
 * row by the store's triggers (which cost most of a million-run build: eight row triggers per run).
 *
 * generateBacklogInSql inserts with the triggers off for its session (session_replication_role =
 * replica, which needs a superuser; without one it keeps them on and fills nothing here), then calls
 * fillSummaries: each summary computed from the rows as the store's own migrations backfill them
 * (packages/mastra-store/migrations/postgres), and the console's risk tables as its installer refills
 * them. tests/bench/sql-backlog.test.ts checks the result against the same runs written through the store.
 */
import type pg from "pg";
import { refillDerivedTables } from "../lib/db/derived-tables.ts";

/** Turns this session's triggers off; false when the role may not (then the triggers keep the summaries). */
export async function triggersOff(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ rolsuper: boolean }>(`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`);
  if (!rows[0]?.rolsuper) return false;
  await client.query(`SET session_replication_role = replica`);
  return true;
}

/** What the store's triggers keep, recomputed from every row (the rows of a database the generator built). */
const SUMMARIES = [
  `DELETE FROM "suspended_run_counts"`,
  `INSERT INTO "suspended_run_counts" ("agent_id", "runs")
   SELECT "agent_id", COUNT(*) FROM "workflow_snapshots" WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY 1`,
  `DELETE FROM "suspended_run_hours"`,
  `INSERT INTO "suspended_run_hours" ("hour", "agent_id", "runs")
   SELECT date_trunc('hour', "created_at"), "agent_id", COUNT(*) FROM "workflow_snapshots"
   WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY 1, 2`,
  `DELETE FROM "suspended_threads"`,
  `INSERT INTO "suspended_threads" ("agent_id", "thread_key", "runs", "calls", "oldest_at")
   SELECT "agent_key", COALESCE("thread_id", ''), COUNT(*), SUM("tool_call_count"), MIN("updated_at")
   FROM "workflow_snapshots" CROSS JOIN LATERAL (VALUES ("agent_id"), ('')) AS "keys" ("agent_key")
   WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY 1, 2`,
  `DELETE FROM "suspended_thread_days"`,
  `INSERT INTO "suspended_thread_days" ("agent_id", "day", "thread_key", "runs", "calls", "oldest_at")
   SELECT "agent_key", date_trunc('day', "created_at"), COALESCE("thread_id", ''), COUNT(*), SUM("tool_call_count"), MIN("updated_at")
   FROM "workflow_snapshots" CROSS JOIN LATERAL (VALUES ("agent_id"), ('')) AS "keys" ("agent_key")
   WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY 1, 2, 3`,
  `DELETE FROM "pending_tool_calls"`,
  `INSERT INTO "pending_tool_calls" ("workflow_name", "run_id", "tool_call_id", "agent_id", "resource_id", "tool_name", "call")
   SELECT "w"."workflow_name", "w"."run_id", "c"->>'toolCallId', "w"."agent_id", "w"."resource_id", "c"->>'toolName', "c"::text
   FROM "workflow_snapshots" AS "w", json_array_elements("w"."tool_calls"::json) AS "c"
   WHERE "w"."status" = 'suspended' AND "w"."agent_id" IS NOT NULL AND "c"->>'toolCallId' IS NOT NULL
   ON CONFLICT DO NOTHING`,
  // Every waiting call not yet announced, as the insert trigger records a new run's calls.
  `INSERT INTO "waiting_tool_calls" ("run_id", "tool_call_id", "workflow_name", "agent_id", "thread_id", "resource_id", "tool_name", "waiting_since")
   SELECT "w"."run_id", "c"->>'toolCallId', "w"."workflow_name", "w"."agent_id", "w"."thread_id", "w"."resource_id", "c"->>'toolName',
     clock_timestamp() AT TIME ZONE 'UTC'
   FROM "workflow_snapshots" AS "w", json_array_elements("w"."tool_calls"::json) AS "c"
   WHERE "w"."status" = 'suspended' AND "w"."agent_id" IS NOT NULL AND "w"."tool_call_count" > 0
   ON CONFLICT DO NOTHING`,
];

/** Fills every summary of `url`'s store from its rows, in one transaction, then the console's risk tables. */
export async function fillSummaries(client: pg.Client, url: string): Promise<void> {
  await client.query("BEGIN");
  try {
    for (const statement of SUMMARIES) await client.query(statement);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
  await refillDerivedTables(url);
}
