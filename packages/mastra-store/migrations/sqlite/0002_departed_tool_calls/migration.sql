-- Pending tool calls that stopped waiting: whenever a suspended run's snapshot loses a call it was
-- waiting on (the run moved on, or its snapshot was deleted), one row per call, in the same
-- transaction as the write. Whoever decided it, the console or anyone else (Mastra Studio, the app's
-- own code), the departure is recorded; a reader that knows its own decisions can tell the others
-- apart. A call departs once: a second write finds it recorded. Runs set aside as a supervisor's inner run lose their owner, not a decision: not recorded.
CREATE TABLE "departed_tool_calls" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "workflow_name" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "thread_id" TEXT,
    "resource_id" TEXT,
    "tool_name" TEXT,
    "run_ended" BOOLEAN NOT NULL,
    "departed_at" DATETIME NOT NULL,

    PRIMARY KEY ("run_id", "tool_call_id")
);

CREATE INDEX "departed_tool_calls_departed_at_idx" ON "departed_tool_calls"("departed_at");

CREATE TRIGGER "workflow_snapshots_departures_delete" AFTER DELETE ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL AND OLD."tool_call_count" > 0
BEGIN
    INSERT INTO "departed_tool_calls" ("run_id", "tool_call_id", "workflow_name", "agent_id", "thread_id", "resource_id", "tool_name", "run_ended", "departed_at")
    SELECT OLD."run_id", json_extract("c"."value", '$.toolCallId'), OLD."workflow_name", OLD."agent_id", OLD."thread_id", OLD."resource_id",
        json_extract("c"."value", '$.toolName'), 1, strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    FROM json_each(OLD."tool_calls") AS "c"
    WHERE true -- SQLite needs a WHERE between a SELECT and its ON CONFLICT
    ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER "workflow_snapshots_departures_update" AFTER UPDATE OF "status", "agent_id", "tool_calls" ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL AND OLD."tool_call_count" > 0 AND NEW."agent_id" IS NOT NULL
    -- A suspended run written again with the same calls (the common rewrite) lost none.
    AND (NEW."status" <> 'suspended' OR NEW."tool_calls" IS NOT OLD."tool_calls")
BEGIN
    INSERT INTO "departed_tool_calls" ("run_id", "tool_call_id", "workflow_name", "agent_id", "thread_id", "resource_id", "tool_name", "run_ended", "departed_at")
    SELECT OLD."run_id", json_extract("c"."value", '$.toolCallId'), OLD."workflow_name", OLD."agent_id", OLD."thread_id", OLD."resource_id",
        json_extract("c"."value", '$.toolName'), 0, strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    FROM json_each(OLD."tool_calls") AS "c"
    WHERE NEW."status" <> 'suspended' OR NOT EXISTS (
        SELECT 1 FROM json_each(COALESCE(NEW."tool_calls", '[]')) AS "n"
        WHERE json_extract("n"."value", '$.toolCallId') = json_extract("c"."value", '$.toolCallId'))
    ON CONFLICT DO NOTHING;
END;
