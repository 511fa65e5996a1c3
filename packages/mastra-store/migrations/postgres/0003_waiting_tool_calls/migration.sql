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
    "waiting_since" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "waiting_tool_calls_pkey" PRIMARY KEY ("run_id","tool_call_id")
);

CREATE INDEX "waiting_tool_calls_waiting_since_idx" ON "waiting_tool_calls"("waiting_since");

CREATE FUNCTION workflow_snapshots_record_waiting() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was_waiting BOOLEAN;
BEGIN
    IF NEW."status" <> 'suspended' OR NEW."agent_id" IS NULL OR NEW."tool_call_count" = 0 THEN
        RETURN NULL;
    END IF;
    was_waiting := TG_OP = 'UPDATE' AND OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL;
    -- A suspended run written again with the same calls (the common rewrite) gained none.
    IF was_waiting AND NEW."tool_calls" IS NOT DISTINCT FROM OLD."tool_calls" THEN
        RETURN NULL;
    END IF;
    INSERT INTO "waiting_tool_calls" ("run_id", "tool_call_id", "workflow_name", "agent_id", "thread_id", "resource_id", "tool_name", "waiting_since")
    SELECT NEW."run_id", "c"->>'toolCallId', NEW."workflow_name", NEW."agent_id", NEW."thread_id", NEW."resource_id", "c"->>'toolName',
        clock_timestamp() AT TIME ZONE 'UTC'
    FROM json_array_elements(NEW."tool_calls"::json) AS "c"
    WHERE NOT was_waiting OR NOT EXISTS (
        SELECT 1 FROM json_array_elements(COALESCE(OLD."tool_calls", '[]')::json) AS "o"
        WHERE "o"->>'toolCallId' = "c"->>'toolCallId')
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

CREATE TRIGGER workflow_snapshots_record_waiting AFTER INSERT OR UPDATE OF status, agent_id, tool_calls ON workflow_snapshots
FOR EACH ROW EXECUTE FUNCTION workflow_snapshots_record_waiting();
