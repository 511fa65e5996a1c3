-- queue_changes (the console's migration live_queue_feed): the triggers of the live queue's change
-- feed that sit on the store's tables (waiting_tool_calls, workflow_snapshots) or name one (a call's
-- agent, thread and resource are read from its run's snapshot). Installed by
-- lib/db/derived-tables.ts on every deploy after the store's and the console's migrations, when any
-- is missing (a new database; a store migration that rebuilt workflow_snapshots drops those on it,
-- and SQLite refuses that rebuild's rename while a trigger elsewhere names the table). Nothing to
-- refill: the feed records changes from now on, and a reader older than its head is reset (lib/live).
-- Triggers that change get new names (the installer looks for these names). The feed's position is
-- one past the highest: SQLite's writers take turns, so positions commit in the order given.
DROP TRIGGER IF EXISTS "queue_changes_waiting";
DROP TRIGGER IF EXISTS "queue_changes_left";
DROP TRIGGER IF EXISTS "queue_changes_left_deleted";
DROP TRIGGER IF EXISTS "queue_changes_call_assignments_insert";
DROP TRIGGER IF EXISTS "queue_changes_call_assignments_update";
DROP TRIGGER IF EXISTS "queue_changes_call_assignments_delete";
DROP TRIGGER IF EXISTS "queue_changes_call_approvals_insert";
DROP TRIGGER IF EXISTS "queue_changes_call_approvals_delete";
DROP TRIGGER IF EXISTS "queue_changes_call_rule_matches_insert";
DROP TRIGGER IF EXISTS "queue_changes_call_rule_matches_update";

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
