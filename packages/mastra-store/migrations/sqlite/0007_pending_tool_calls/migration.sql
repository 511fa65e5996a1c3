-- Every call waiting now, one row each (PendingToolCall in store.prisma): what reads all waiting
-- calls (a rule's dry run, applying a rule to the calls already waiting) reads here, a few hundred
-- bytes per call in key order, instead of each suspended run's row, which holds its whole snapshot
-- (tens of kB: one scattered page read per run, minutes for a dry run over 100,000 runs when the
-- file was not in memory). Kept exact by the triggers below in the same transaction as the snapshot
-- write; a rewrite that changes none of its columns (the common one) touches nothing.
CREATE TABLE "pending_tool_calls" (
    "workflow_name" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "resource_id" TEXT,
    "tool_name" TEXT,
    "call" TEXT NOT NULL,

    PRIMARY KEY ("workflow_name", "run_id", "tool_call_id")
);

INSERT INTO "pending_tool_calls" ("workflow_name", "run_id", "tool_call_id", "agent_id", "resource_id", "tool_name", "call")
SELECT "w"."workflow_name", "w"."run_id", json_extract("c"."value", '$.toolCallId'), "w"."agent_id", "w"."resource_id",
    json_extract("c"."value", '$.toolName'), "c"."value"
FROM "workflow_snapshots" AS "w", json_each("w"."tool_calls") AS "c"
WHERE "w"."status" = 'suspended' AND "w"."agent_id" IS NOT NULL AND json_extract("c"."value", '$.toolCallId') IS NOT NULL
ON CONFLICT DO NOTHING;

CREATE TRIGGER "workflow_snapshots_pending_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND NEW."tool_calls" IS NOT NULL
BEGIN
    INSERT INTO "pending_tool_calls" ("workflow_name", "run_id", "tool_call_id", "agent_id", "resource_id", "tool_name", "call")
    SELECT NEW."workflow_name", NEW."run_id", json_extract("c"."value", '$.toolCallId'), NEW."agent_id", NEW."resource_id",
        json_extract("c"."value", '$.toolName'), "c"."value"
    FROM json_each(NEW."tool_calls") AS "c"
    WHERE json_extract("c"."value", '$.toolCallId') IS NOT NULL
    ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER "workflow_snapshots_pending_update" AFTER UPDATE OF "status", "agent_id", "resource_id", "tool_calls" ON "workflow_snapshots"
WHEN ((OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL) OR (NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL))
    AND (OLD."status" IS NOT NEW."status" OR OLD."agent_id" IS NOT NEW."agent_id"
        OR OLD."resource_id" IS NOT NEW."resource_id" OR OLD."tool_calls" IS NOT NEW."tool_calls")
BEGIN
    DELETE FROM "pending_tool_calls" WHERE "workflow_name" = OLD."workflow_name" AND "run_id" = OLD."run_id";
    INSERT INTO "pending_tool_calls" ("workflow_name", "run_id", "tool_call_id", "agent_id", "resource_id", "tool_name", "call")
    SELECT NEW."workflow_name", NEW."run_id", json_extract("c"."value", '$.toolCallId'), NEW."agent_id", NEW."resource_id",
        json_extract("c"."value", '$.toolName'), "c"."value"
    FROM json_each(NEW."tool_calls") AS "c"
    WHERE NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND json_extract("c"."value", '$.toolCallId') IS NOT NULL
    ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER "workflow_snapshots_pending_delete" AFTER DELETE ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
BEGIN
    DELETE FROM "pending_tool_calls" WHERE "workflow_name" = OLD."workflow_name" AND "run_id" = OLD."run_id";
END;
