-- Tool calls that started waiting: whenever a suspended agent run is written with a call its previous
-- version did not have (a new run, or a run that moved on to another call), one row per new call, in
-- the same transaction as the write. Whichever process writes the snapshot (the console's agents or a
-- team's own Mastra server), a reader that announces new calls misses none; it deletes what it takes.
-- A call is recorded once while unread: a second write finds it there.
CREATE TABLE "waiting_tool_calls" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "workflow_name" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "thread_id" TEXT,
    "resource_id" TEXT,
    "tool_name" TEXT,
    "waiting_since" DATETIME NOT NULL,

    PRIMARY KEY ("run_id", "tool_call_id")
);

CREATE INDEX "waiting_tool_calls_waiting_since_idx" ON "waiting_tool_calls"("waiting_since");

CREATE TRIGGER "workflow_snapshots_waiting_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND NEW."tool_call_count" > 0
BEGIN
    INSERT INTO "waiting_tool_calls" ("run_id", "tool_call_id", "workflow_name", "agent_id", "thread_id", "resource_id", "tool_name", "waiting_since")
    SELECT NEW."run_id", json_extract("c"."value", '$.toolCallId'), NEW."workflow_name", NEW."agent_id", NEW."thread_id", NEW."resource_id",
        json_extract("c"."value", '$.toolName'), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    FROM json_each(NEW."tool_calls") AS "c"
    WHERE true -- SQLite needs a WHERE between a SELECT and its ON CONFLICT
    ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER "workflow_snapshots_waiting_update" AFTER UPDATE OF "status", "agent_id", "tool_calls" ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND NEW."tool_call_count" > 0
    -- A suspended run written again with the same calls (the common rewrite) gained none.
    AND (OLD."status" <> 'suspended' OR OLD."agent_id" IS NULL OR NEW."tool_calls" IS NOT OLD."tool_calls")
BEGIN
    INSERT INTO "waiting_tool_calls" ("run_id", "tool_call_id", "workflow_name", "agent_id", "thread_id", "resource_id", "tool_name", "waiting_since")
    SELECT NEW."run_id", json_extract("c"."value", '$.toolCallId'), NEW."workflow_name", NEW."agent_id", NEW."thread_id", NEW."resource_id",
        json_extract("c"."value", '$.toolName'), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    FROM json_each(NEW."tool_calls") AS "c"
    WHERE OLD."status" <> 'suspended' OR OLD."agent_id" IS NULL OR NOT EXISTS (
        SELECT 1 FROM json_each(COALESCE(OLD."tool_calls", '[]')) AS "o"
        WHERE json_extract("o"."value", '$.toolCallId') = json_extract("c"."value", '$.toolCallId'))
    ON CONFLICT DO NOTHING;
END;
