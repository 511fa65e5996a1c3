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

-- The live queue's change feed (lib/live, docs/live-queue.md): what a reader of the queue sees
-- change, one row each, written by triggers in the transaction of the change, whichever process
-- made it (the console, or a team's own Mastra server writing the store's tables). Only the
-- triggers on the console's tables that name no store table are here: those on or naming the
-- store's (a call waiting, a run leaving, a call assigned, approved or rated) are
-- prisma/sqlite/derived/queue_changes.sql, installed by lib/db/derived-tables.ts, because a store
-- migration that rebuilds workflow_snapshots on SQLite fails while a trigger names it.
-- SQLite's writers take turns, so positions are committed in the order they are given: each is one
-- past the highest (the primary key's last entry; BIGINT is no rowid, and pruning always keeps the
-- newest row).

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
