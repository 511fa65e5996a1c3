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
    "departed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "departed_tool_calls_pkey" PRIMARY KEY ("run_id","tool_call_id")
);

CREATE INDEX "departed_tool_calls_departed_at_idx" ON "departed_tool_calls"("departed_at");

CREATE FUNCTION workflow_snapshots_record_departures() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD."status" <> 'suspended' OR OLD."agent_id" IS NULL OR OLD."tool_call_count" = 0 THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        INSERT INTO "departed_tool_calls" ("run_id", "tool_call_id", "workflow_name", "agent_id", "thread_id", "resource_id", "tool_name", "run_ended", "departed_at")
        SELECT OLD."run_id", "c"->>'toolCallId', OLD."workflow_name", OLD."agent_id", OLD."thread_id", OLD."resource_id", "c"->>'toolName',
            TRUE, clock_timestamp() AT TIME ZONE 'UTC'
        FROM json_array_elements(OLD."tool_calls"::json) AS "c"
        ON CONFLICT DO NOTHING;
    -- A suspended run written again with the same calls (the common rewrite) lost none.
    ELSIF NEW."agent_id" IS NOT NULL AND (NEW."status" <> 'suspended' OR NEW."tool_calls" IS DISTINCT FROM OLD."tool_calls") THEN
        INSERT INTO "departed_tool_calls" ("run_id", "tool_call_id", "workflow_name", "agent_id", "thread_id", "resource_id", "tool_name", "run_ended", "departed_at")
        SELECT OLD."run_id", "c"->>'toolCallId', OLD."workflow_name", OLD."agent_id", OLD."thread_id", OLD."resource_id", "c"->>'toolName',
            FALSE, clock_timestamp() AT TIME ZONE 'UTC'
        FROM json_array_elements(OLD."tool_calls"::json) AS "c"
        WHERE NEW."status" <> 'suspended' OR NOT EXISTS (
            SELECT 1 FROM json_array_elements(COALESCE(NEW."tool_calls", '[]')::json) AS "n"
            WHERE "n"->>'toolCallId' = "c"->>'toolCallId')
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER workflow_snapshots_record_departures AFTER DELETE OR UPDATE OF status, agent_id, tool_calls ON workflow_snapshots
FOR EACH ROW EXECUTE FUNCTION workflow_snapshots_record_departures();
