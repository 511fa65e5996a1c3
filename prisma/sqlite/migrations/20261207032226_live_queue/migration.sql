-- CreateTable
CREATE TABLE "queue_changes" (
    "position" BIGINT NOT NULL PRIMARY KEY,
    "at" DATETIME NOT NULL,
    "kind" TEXT NOT NULL,
    "run_id" TEXT,
    "tool_call_id" TEXT,
    "agent_id" TEXT,
    "thread_id" TEXT,
    "resource_id" TEXT,
    "tx" BIGINT NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "queue_changes_at_idx" ON "queue_changes"("at");

-- CreateIndex
CREATE INDEX "queue_changes_tx_idx" ON "queue_changes"("tx");

-- The live queue's change feed (lib/live, the README's "Live queue"): what a reader of the queue sees
-- change, one row each, written by these triggers in the transaction of the change, whichever process
-- made it (the console, or a team's own Mastra server writing the store's tables). SQLite's writers
-- take turns, so positions are committed in the order they are given: each is one past the
-- highest (the primary key's last entry; BIGINT is no rowid, and pruning always keeps the newest row).

-- A call started waiting (the store's waiting_tool_calls records each new call once).
CREATE TRIGGER "queue_changes_waiting" AFTER INSERT ON "waiting_tool_calls"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES ((SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'waiting', NEW."run_id", NEW."tool_call_id", NEW."agent_id", NEW."thread_id", NEW."resource_id", 0);
END;

-- A waiting run left the queue, or one of its calls did: it ran on, ended, or was deleted.
CREATE TRIGGER "queue_changes_left" AFTER UPDATE OF "status", "agent_id", "tool_call_count" ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
    AND (NEW."status" <> 'suspended' OR NEW."agent_id" IS NULL OR NEW."tool_call_count" < OLD."tool_call_count")
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES ((SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'left', OLD."run_id", NULL, OLD."agent_id", OLD."thread_id", OLD."resource_id", 0);
END;

CREATE TRIGGER "queue_changes_left_deleted" AFTER DELETE ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES ((SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'left', OLD."run_id", NULL, OLD."agent_id", OLD."thread_id", OLD."resource_id", 0);
END;

-- A decision was claimed (recorded) or moved on: applying, applied, failed, released.
CREATE TRIGGER "queue_changes_decision_recorded" AFTER INSERT ON "tool_call_decisions"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES ((SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'decision.' || NEW."state", NEW."run_id", NEW."tool_call_id", NEW."agent_id", NEW."thread_id", NEW."resource_id", 0);
END;

CREATE TRIGGER "queue_changes_decision_moved" AFTER UPDATE OF "state" ON "tool_call_decisions"
WHEN NEW."state" IS NOT OLD."state"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES ((SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'decision.' || NEW."state", NEW."run_id", NEW."tool_call_id", NEW."agent_id", NEW."thread_id", NEW."resource_id", 0);
END;

-- A call was assigned, approved by one more reviewer (or the approval withdrawn), or rated by a rule.
CREATE TRIGGER "queue_changes_call_assignments_insert" AFTER INSERT ON "call_assignments"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    SELECT (SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'assigned', NEW."run_id", NEW."tool_call_id", "s"."agent_id", "s"."thread_id", "s"."resource_id", 0
    FROM (SELECT 1) LEFT JOIN "workflow_snapshots" AS "s" ON "s"."run_id" = NEW."run_id" AND "s"."agent_id" IS NOT NULL
    LIMIT 1;
END;

CREATE TRIGGER "queue_changes_call_assignments_update" AFTER UPDATE ON "call_assignments"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    SELECT (SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'assigned', NEW."run_id", NEW."tool_call_id", "s"."agent_id", "s"."thread_id", "s"."resource_id", 0
    FROM (SELECT 1) LEFT JOIN "workflow_snapshots" AS "s" ON "s"."run_id" = NEW."run_id" AND "s"."agent_id" IS NOT NULL
    LIMIT 1;
END;

CREATE TRIGGER "queue_changes_call_assignments_delete" AFTER DELETE ON "call_assignments"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    SELECT (SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'assigned', OLD."run_id", OLD."tool_call_id", "s"."agent_id", "s"."thread_id", "s"."resource_id", 0
    FROM (SELECT 1) LEFT JOIN "workflow_snapshots" AS "s" ON "s"."run_id" = OLD."run_id" AND "s"."agent_id" IS NOT NULL
    LIMIT 1;
END;

CREATE TRIGGER "queue_changes_call_approvals_insert" AFTER INSERT ON "call_approvals"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    SELECT (SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'approved', NEW."run_id", NEW."tool_call_id", "s"."agent_id", "s"."thread_id", "s"."resource_id", 0
    FROM (SELECT 1) LEFT JOIN "workflow_snapshots" AS "s" ON "s"."run_id" = NEW."run_id" AND "s"."agent_id" IS NOT NULL
    LIMIT 1;
END;

CREATE TRIGGER "queue_changes_call_approvals_delete" AFTER DELETE ON "call_approvals"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    SELECT (SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'approved', OLD."run_id", OLD."tool_call_id", "s"."agent_id", "s"."thread_id", "s"."resource_id", 0
    FROM (SELECT 1) LEFT JOIN "workflow_snapshots" AS "s" ON "s"."run_id" = OLD."run_id" AND "s"."agent_id" IS NOT NULL
    LIMIT 1;
END;

CREATE TRIGGER "queue_changes_call_rule_matches_insert" AFTER INSERT ON "call_rule_matches"
WHEN NEW."risk" IS NOT NULL
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    SELECT (SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'rated', NEW."run_id", NEW."tool_call_id", "s"."agent_id", "s"."thread_id", "s"."resource_id", 0
    FROM (SELECT 1) LEFT JOIN "workflow_snapshots" AS "s" ON "s"."run_id" = NEW."run_id" AND "s"."agent_id" IS NOT NULL
    LIMIT 1;
END;

-- An admin applying a rule to waiting calls rewrites a call's match (lib/rules/apply.ts): a new risk is a change too.
CREATE TRIGGER "queue_changes_call_rule_matches_update" AFTER UPDATE OF "risk" ON "call_rule_matches"
WHEN NEW."risk" IS NOT OLD."risk"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    SELECT (SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'rated', NEW."run_id", NEW."tool_call_id", "s"."agent_id", "s"."thread_id", "s"."resource_id", 0
    FROM (SELECT 1) LEFT JOIN "workflow_snapshots" AS "s" ON "s"."run_id" = NEW."run_id" AND "s"."agent_id" IS NOT NULL
    LIMIT 1;
END;

-- A whole thread was assigned or unassigned.
CREATE TRIGGER "queue_changes_thread_assignments_insert" AFTER INSERT ON "thread_assignments"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES ((SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'assigned', NULL, NULL, NULL, NEW."thread_id", NULL, 0);
END;

CREATE TRIGGER "queue_changes_thread_assignments_update" AFTER UPDATE ON "thread_assignments"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES ((SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'assigned', NULL, NULL, NULL, NEW."thread_id", NULL, 0);
END;

CREATE TRIGGER "queue_changes_thread_assignments_delete" AFTER DELETE ON "thread_assignments"
BEGIN
    INSERT INTO "queue_changes" ("position", "at", "kind", "run_id", "tool_call_id", "agent_id", "thread_id", "resource_id", "tx")
    VALUES ((SELECT COALESCE(MAX("position"), 0) + 1 FROM "queue_changes"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), 'assigned', NULL, NULL, NULL, OLD."thread_id", NULL, 0);
END;
