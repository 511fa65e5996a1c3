-- Every call waiting now, one row each (PendingToolCall in store.prisma): what reads all waiting
-- calls (a rule's dry run, applying a rule to the calls already waiting) reads here, a few hundred
-- bytes per call in key order, instead of each suspended run's row and its snapshot. Kept exact by
-- the trigger below in the same transaction as the snapshot write; a rewrite that changes none of
-- its columns (the common one) touches nothing.
CREATE TABLE "pending_tool_calls" (
    "workflow_name" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "resource_id" TEXT,
    "tool_name" TEXT,
    "call" TEXT NOT NULL,

    CONSTRAINT "pending_tool_calls_pkey" PRIMARY KEY ("workflow_name", "run_id", "tool_call_id")
);

INSERT INTO "pending_tool_calls" ("workflow_name", "run_id", "tool_call_id", "agent_id", "resource_id", "tool_name", "call")
SELECT "w"."workflow_name", "w"."run_id", "c"->>'toolCallId', "w"."agent_id", "w"."resource_id", "c"->>'toolName', "c"::text
FROM "workflow_snapshots" AS "w", json_array_elements("w"."tool_calls"::json) AS "c"
WHERE "w"."status" = 'suspended' AND "w"."agent_id" IS NOT NULL AND "c"->>'toolCallId' IS NOT NULL
ON CONFLICT DO NOTHING;

CREATE FUNCTION workflow_snapshots_keep_pending_calls() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW."status" IS NOT DISTINCT FROM OLD."status" AND NEW."agent_id" IS NOT DISTINCT FROM OLD."agent_id"
        AND NEW."resource_id" IS NOT DISTINCT FROM OLD."resource_id" AND NEW."tool_calls" IS NOT DISTINCT FROM OLD."tool_calls" THEN
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' AND OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL THEN
        DELETE FROM "pending_tool_calls" WHERE "workflow_name" = OLD."workflow_name" AND "run_id" = OLD."run_id";
    END IF;
    IF TG_OP <> 'DELETE' AND NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND NEW."tool_calls" IS NOT NULL THEN
        INSERT INTO "pending_tool_calls" ("workflow_name", "run_id", "tool_call_id", "agent_id", "resource_id", "tool_name", "call")
        SELECT NEW."workflow_name", NEW."run_id", "c"->>'toolCallId', NEW."agent_id", NEW."resource_id", "c"->>'toolName', "c"::text
        FROM json_array_elements(NEW."tool_calls"::json) AS "c"
        WHERE "c"->>'toolCallId' IS NOT NULL
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER workflow_snapshots_keep_pending_calls AFTER INSERT OR UPDATE OF status, agent_id, resource_id, tool_calls OR DELETE ON workflow_snapshots
FOR EACH ROW EXECUTE FUNCTION workflow_snapshots_keep_pending_calls();
