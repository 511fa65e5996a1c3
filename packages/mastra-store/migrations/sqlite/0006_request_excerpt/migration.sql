-- The request excerpt (the run's last user message, one line: what the review queue shows beside a
-- call). SQLite's ALTER TABLE ADD COLUMN appends a column after "snapshot", and every read of it would
-- then walk the snapshot JSON's overflow pages: the table is rebuilt with the new column before
-- "snapshot", as in 0001_init, keeping every rowid (the queue reads shown rows by rowid). Dropping the
-- old table drops its indexes and triggers (the summaries' triggers of 0001-0005, in their current
-- form): they are made again on the new table, unchanged. DROP TABLE fires no trigger, so the
-- summaries stay as they are. The excerpts of runs already waiting are filled in by the migrator in
-- the same transaction (src/migrate.ts, backfillRequestExcerpts).
CREATE TABLE "new_workflow_snapshots" (
    "workflow_name" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "resource_id" TEXT,
    "agent_id" TEXT,
    "thread_id" TEXT,
    "status" TEXT NOT NULL,
    "tool_call_count" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    "tool_calls" TEXT,
    "request_excerpt" TEXT,
    "snapshot" TEXT NOT NULL,

    PRIMARY KEY ("workflow_name", "run_id")
);

INSERT INTO "new_workflow_snapshots" ("rowid", "workflow_name", "run_id", "resource_id", "agent_id", "thread_id", "status", "tool_call_count", "version", "created_at", "updated_at", "tool_calls", "snapshot")
SELECT "rowid", "workflow_name", "run_id", "resource_id", "agent_id", "thread_id", "status", "tool_call_count", "version", "created_at", "updated_at", "tool_calls", "snapshot" FROM "workflow_snapshots";

DROP TABLE "workflow_snapshots";
ALTER TABLE "new_workflow_snapshots" RENAME TO "workflow_snapshots";

CREATE INDEX "workflow_snapshots_agent_id_status_created_at_run_id_workflow_name_idx" ON "workflow_snapshots"("agent_id", "status", "created_at", "run_id", "workflow_name");;

CREATE INDEX "workflow_snapshots_run_id_idx" ON "workflow_snapshots"("run_id");;

CREATE INDEX "workflow_snapshots_status_created_at_run_id_agent_id_workflow_name_thread_id_updated_at_tool_call_count_idx" ON "workflow_snapshots"("status", "created_at", "run_id", "agent_id", "workflow_name", "thread_id", "updated_at", "tool_call_count");;

CREATE INDEX "workflow_snapshots_status_resource_id_created_at_run_id_agent_id_workflow_name_thread_id_updated_at_tool_call_count_idx" ON "workflow_snapshots"("status", "resource_id", "created_at", "run_id", "agent_id", "workflow_name", "thread_id", "updated_at", "tool_call_count");;

CREATE INDEX "workflow_snapshots_status_thread_id_created_at_run_id_agent_id_workflow_name_updated_at_tool_call_count_idx" ON "workflow_snapshots"("status", "thread_id", "created_at", "run_id", "agent_id", "workflow_name", "updated_at", "tool_call_count");;

CREATE INDEX "workflow_snapshots_status_updated_at_agent_id_thread_id_tool_call_count_idx" ON "workflow_snapshots"("status", "updated_at", "agent_id", "thread_id", "tool_call_count");;

CREATE INDEX "workflow_snapshots_workflow_name_resource_id_created_at_idx" ON "workflow_snapshots"("workflow_name", "resource_id", "created_at");;

CREATE INDEX "workflow_snapshots_workflow_name_status_created_at_idx" ON "workflow_snapshots"("workflow_name", "status", "created_at");;

CREATE TRIGGER "workflow_snapshots_count_delete" AFTER DELETE ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
BEGIN
    UPDATE "suspended_run_counts" SET "runs" = "runs" - 1 WHERE "agent_id" = OLD."agent_id";
END;;

CREATE TRIGGER "workflow_snapshots_count_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
BEGIN
    INSERT INTO "suspended_run_counts" ("agent_id", "runs") VALUES (NEW."agent_id", 1)
    ON CONFLICT ("agent_id") DO UPDATE SET "runs" = "runs" + 1;
END;;

CREATE TRIGGER "workflow_snapshots_count_update" AFTER UPDATE OF "status", "agent_id" ON "workflow_snapshots"
WHEN ((OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL) OR (NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL))
    AND (OLD."status" IS NOT NEW."status" OR OLD."agent_id" IS NOT NEW."agent_id")
BEGIN
    UPDATE "suspended_run_counts" SET "runs" = "runs" - 1
    WHERE OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL AND "agent_id" = OLD."agent_id";
    INSERT INTO "suspended_run_counts" ("agent_id", "runs")
    SELECT NEW."agent_id", 1 WHERE NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
    ON CONFLICT ("agent_id") DO UPDATE SET "runs" = "runs" + 1;
END;;

CREATE TRIGGER "workflow_snapshots_departures_delete" AFTER DELETE ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL AND OLD."tool_call_count" > 0
BEGIN
    INSERT INTO "departed_tool_calls" ("run_id", "tool_call_id", "workflow_name", "agent_id", "thread_id", "resource_id", "tool_name", "run_ended", "departed_at")
    SELECT OLD."run_id", json_extract("c"."value", '$.toolCallId'), OLD."workflow_name", OLD."agent_id", OLD."thread_id", OLD."resource_id",
        json_extract("c"."value", '$.toolName'), 1, strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    FROM json_each(OLD."tool_calls") AS "c"
    WHERE true -- SQLite needs a WHERE between a SELECT and its ON CONFLICT
    ON CONFLICT DO NOTHING;
END;;

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
END;;

CREATE TRIGGER "workflow_snapshots_hours_delete" AFTER DELETE ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
BEGIN
    UPDATE "suspended_run_hours" SET "runs" = "runs" - 1
    WHERE "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") AND "agent_id" = OLD."agent_id";
    DELETE FROM "suspended_run_hours"
    WHERE "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") AND "agent_id" = OLD."agent_id" AND "runs" <= 0;
END;;

CREATE TRIGGER "workflow_snapshots_hours_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
BEGIN
    INSERT INTO "suspended_run_hours" ("hour", "agent_id", "runs")
    VALUES (strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), NEW."agent_id", 1)
    ON CONFLICT ("hour", "agent_id") DO UPDATE SET "runs" = "runs" + 1;
END;;

CREATE TRIGGER "workflow_snapshots_hours_update" AFTER UPDATE OF "status", "agent_id", "created_at" ON "workflow_snapshots"
WHEN ((OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL) OR (NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL))
    AND (OLD."status" IS NOT NEW."status" OR OLD."agent_id" IS NOT NEW."agent_id"
        OR strftime('%Y-%m-%dT%H', OLD."created_at") IS NOT strftime('%Y-%m-%dT%H', NEW."created_at"))
BEGIN
    UPDATE "suspended_run_hours" SET "runs" = "runs" - 1
    WHERE OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
      AND "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") AND "agent_id" = OLD."agent_id";
    DELETE FROM "suspended_run_hours"
    WHERE "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") AND "agent_id" = OLD."agent_id" AND "runs" <= 0;
    INSERT INTO "suspended_run_hours" ("hour", "agent_id", "runs")
    SELECT strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), NEW."agent_id", 1
    WHERE NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
    ON CONFLICT ("hour", "agent_id") DO UPDATE SET "runs" = "runs" + 1;
END;;

CREATE TRIGGER "workflow_snapshots_thread_days_delete" AFTER DELETE ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
BEGIN
    UPDATE "suspended_thread_days" SET "runs" = "runs" - 1, "calls" = "calls" - OLD."tool_call_count"
    WHERE "agent_id" IN (OLD."agent_id", '') AND "day" = strftime('%Y-%m-%dT00:00:00.000+00:00', OLD."created_at")
      AND "thread_key" = COALESCE(OLD."thread_id", '');
    DELETE FROM "suspended_thread_days"
    WHERE "agent_id" IN (OLD."agent_id", '') AND "day" = strftime('%Y-%m-%dT00:00:00.000+00:00', OLD."created_at")
      AND "thread_key" = COALESCE(OLD."thread_id", '') AND "runs" <= 0;
    -- The day's next oldest: a range of one thread's entries in the threads' index.
    UPDATE "suspended_thread_days" SET "oldest_at" = COALESCE((
        SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
        WHERE "w"."status" = 'suspended' AND "w"."thread_id" IS OLD."thread_id"
          AND "w"."created_at" >= strftime('%Y-%m-%dT00:00:00.000+00:00', OLD."created_at")
          AND "w"."created_at" < strftime('%Y-%m-%dT00:00:00.000+00:00', OLD."created_at", '+1 day')
          AND "w"."agent_id" IS NOT NULL
          AND ("suspended_thread_days"."agent_id" = '' OR "w"."agent_id" = "suspended_thread_days"."agent_id")), "oldest_at")
    WHERE "agent_id" IN (OLD."agent_id", '') AND "day" = strftime('%Y-%m-%dT00:00:00.000+00:00', OLD."created_at")
      AND "thread_key" = COALESCE(OLD."thread_id", '') AND "oldest_at" = OLD."updated_at";
END;;

CREATE TRIGGER "workflow_snapshots_thread_days_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
BEGIN
    INSERT INTO "suspended_thread_days" ("agent_id", "day", "thread_key", "runs", "calls", "oldest_at")
    VALUES ('', strftime('%Y-%m-%dT00:00:00.000+00:00', NEW."created_at"), COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at"),
           (NEW."agent_id", strftime('%Y-%m-%dT00:00:00.000+00:00', NEW."created_at"), COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at")
    ON CONFLICT ("agent_id", "day", "thread_key") DO UPDATE SET
        "runs" = "runs" + 1, "calls" = "calls" + excluded."calls", "oldest_at" = MIN("oldest_at", excluded."oldest_at");
END;;

CREATE TRIGGER "workflow_snapshots_thread_days_touch" AFTER UPDATE OF "updated_at" ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND OLD."agent_id" = NEW."agent_id"
    AND OLD."thread_id" IS NEW."thread_id" AND OLD."tool_call_count" = NEW."tool_call_count" AND OLD."updated_at" IS NOT NEW."updated_at"
    AND strftime('%Y-%m-%d', OLD."created_at") IS strftime('%Y-%m-%d', NEW."created_at")
BEGIN
    UPDATE "suspended_thread_days" SET "oldest_at" = CASE
        WHEN "oldest_at" = OLD."updated_at" THEN COALESCE((
            SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
            WHERE "w"."status" = 'suspended' AND "w"."thread_id" IS NEW."thread_id"
              AND "w"."created_at" >= strftime('%Y-%m-%dT00:00:00.000+00:00', NEW."created_at")
              AND "w"."created_at" < strftime('%Y-%m-%dT00:00:00.000+00:00', NEW."created_at", '+1 day')
              AND "w"."agent_id" IS NOT NULL
              AND ("suspended_thread_days"."agent_id" = '' OR "w"."agent_id" = "suspended_thread_days"."agent_id")), NEW."updated_at")
        ELSE MIN("oldest_at", NEW."updated_at") END
    WHERE "agent_id" IN (NEW."agent_id", '') AND "day" = strftime('%Y-%m-%dT00:00:00.000+00:00', NEW."created_at")
      AND "thread_key" = COALESCE(NEW."thread_id", '') AND ("oldest_at" = OLD."updated_at" OR NEW."updated_at" < "oldest_at");
END;;

CREATE TRIGGER "workflow_snapshots_thread_days_update"
AFTER UPDATE OF "status", "agent_id", "thread_id", "created_at", "updated_at", "tool_call_count" ON "workflow_snapshots"
WHEN ((OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL) OR (NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL))
    AND (OLD."status" IS NOT NEW."status" OR OLD."agent_id" IS NOT NEW."agent_id" OR OLD."thread_id" IS NOT NEW."thread_id"
        OR OLD."tool_call_count" IS NOT NEW."tool_call_count"
        OR strftime('%Y-%m-%d', OLD."created_at") IS NOT strftime('%Y-%m-%d', NEW."created_at"))
BEGIN
    UPDATE "suspended_thread_days" SET "runs" = "runs" - 1, "calls" = "calls" - OLD."tool_call_count"
    WHERE OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
      AND "agent_id" IN (OLD."agent_id", '') AND "day" = strftime('%Y-%m-%dT00:00:00.000+00:00', OLD."created_at")
      AND "thread_key" = COALESCE(OLD."thread_id", '');
    DELETE FROM "suspended_thread_days"
    WHERE OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
      AND "agent_id" IN (OLD."agent_id", '') AND "day" = strftime('%Y-%m-%dT00:00:00.000+00:00', OLD."created_at")
      AND "thread_key" = COALESCE(OLD."thread_id", '') AND "runs" <= 0;
    -- As in suspended_threads': the row as it is now may still be in that day of the thread; the
    -- look-up sees it, and the insert below then finds the day's oldest already right.
    UPDATE "suspended_thread_days" SET "oldest_at" = COALESCE((
        SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
        WHERE "w"."status" = 'suspended' AND "w"."thread_id" IS OLD."thread_id"
          AND "w"."created_at" >= strftime('%Y-%m-%dT00:00:00.000+00:00', OLD."created_at")
          AND "w"."created_at" < strftime('%Y-%m-%dT00:00:00.000+00:00', OLD."created_at", '+1 day')
          AND "w"."agent_id" IS NOT NULL
          AND ("suspended_thread_days"."agent_id" = '' OR "w"."agent_id" = "suspended_thread_days"."agent_id")), "oldest_at")
    WHERE OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
      AND "agent_id" IN (OLD."agent_id", '') AND "day" = strftime('%Y-%m-%dT00:00:00.000+00:00', OLD."created_at")
      AND "thread_key" = COALESCE(OLD."thread_id", '') AND "oldest_at" = OLD."updated_at";
    INSERT INTO "suspended_thread_days" ("agent_id", "day", "thread_key", "runs", "calls", "oldest_at")
    SELECT NEW."agent_id", strftime('%Y-%m-%dT00:00:00.000+00:00', NEW."created_at"), COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at"
    WHERE NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
    UNION ALL
    SELECT '', strftime('%Y-%m-%dT00:00:00.000+00:00', NEW."created_at"), COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at"
    WHERE NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
    ON CONFLICT ("agent_id", "day", "thread_key") DO UPDATE SET
        "runs" = "runs" + 1, "calls" = "calls" + excluded."calls", "oldest_at" = MIN("oldest_at", excluded."oldest_at");
END;;

CREATE TRIGGER "workflow_snapshots_threads_delete" AFTER DELETE ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
BEGIN
    UPDATE "suspended_threads" SET "runs" = "runs" - 1, "calls" = "calls" - OLD."tool_call_count"
    WHERE "agent_id" IN (OLD."agent_id", '') AND "thread_key" = COALESCE(OLD."thread_id", '');
    DELETE FROM "suspended_threads"
    WHERE "agent_id" IN (OLD."agent_id", '') AND "thread_key" = COALESCE(OLD."thread_id", '') AND "runs" <= 0;
    UPDATE "suspended_threads" SET "oldest_at" = COALESCE((
        SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
        WHERE "w"."status" = 'suspended' AND "w"."thread_id" IS OLD."thread_id" AND "w"."agent_id" IS NOT NULL
          AND ("suspended_threads"."agent_id" = '' OR "w"."agent_id" = "suspended_threads"."agent_id")), "oldest_at")
    WHERE "agent_id" IN (OLD."agent_id", '') AND "thread_key" = COALESCE(OLD."thread_id", '') AND "oldest_at" = OLD."updated_at";
END;;

CREATE TRIGGER "workflow_snapshots_threads_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
BEGIN
    INSERT INTO "suspended_threads" ("agent_id", "thread_key", "runs", "calls", "oldest_at")
    VALUES ('', COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at"),
           (NEW."agent_id", COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at")
    ON CONFLICT ("agent_id", "thread_key") DO UPDATE SET
        "runs" = "runs" + 1, "calls" = "calls" + excluded."calls", "oldest_at" = MIN("oldest_at", excluded."oldest_at");
END;;

CREATE TRIGGER "workflow_snapshots_threads_touch" AFTER UPDATE OF "updated_at" ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND OLD."agent_id" = NEW."agent_id"
    AND OLD."thread_id" IS NEW."thread_id" AND OLD."tool_call_count" = NEW."tool_call_count" AND OLD."updated_at" IS NOT NEW."updated_at"
BEGIN
    UPDATE "suspended_threads" SET "oldest_at" = CASE
        WHEN "oldest_at" = OLD."updated_at" THEN COALESCE((
            SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
            WHERE "w"."status" = 'suspended' AND "w"."thread_id" IS NEW."thread_id" AND "w"."agent_id" IS NOT NULL
              AND ("suspended_threads"."agent_id" = '' OR "w"."agent_id" = "suspended_threads"."agent_id")), NEW."updated_at")
        ELSE MIN("oldest_at", NEW."updated_at") END
    WHERE "agent_id" IN (NEW."agent_id", '') AND "thread_key" = COALESCE(NEW."thread_id", '')
      AND ("oldest_at" = OLD."updated_at" OR NEW."updated_at" < "oldest_at");
END;;

CREATE TRIGGER "workflow_snapshots_threads_update"
AFTER UPDATE OF "status", "agent_id", "thread_id", "updated_at", "tool_call_count" ON "workflow_snapshots"
WHEN ((OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL) OR (NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL))
    AND (OLD."status" IS NOT NEW."status" OR OLD."agent_id" IS NOT NEW."agent_id" OR OLD."thread_id" IS NOT NEW."thread_id"
        OR OLD."tool_call_count" IS NOT NEW."tool_call_count")
BEGIN
    UPDATE "suspended_threads" SET "runs" = "runs" - 1, "calls" = "calls" - OLD."tool_call_count"
    WHERE OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
      AND "agent_id" IN (OLD."agent_id", '') AND "thread_key" = COALESCE(OLD."thread_id", '');
    DELETE FROM "suspended_threads"
    WHERE OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
      AND "agent_id" IN (OLD."agent_id", '') AND "thread_key" = COALESCE(OLD."thread_id", '') AND "runs" <= 0;
    -- The row as it is now may still be in the thread: the look-up sees it, and the insert below
    -- then finds the thread's oldest already right.
    UPDATE "suspended_threads" SET "oldest_at" = COALESCE((
        SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
        WHERE "w"."status" = 'suspended' AND "w"."thread_id" IS OLD."thread_id" AND "w"."agent_id" IS NOT NULL
          AND ("suspended_threads"."agent_id" = '' OR "w"."agent_id" = "suspended_threads"."agent_id")), "oldest_at")
    WHERE OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
      AND "agent_id" IN (OLD."agent_id", '') AND "thread_key" = COALESCE(OLD."thread_id", '') AND "oldest_at" = OLD."updated_at";
    INSERT INTO "suspended_threads" ("agent_id", "thread_key", "runs", "calls", "oldest_at")
    SELECT NEW."agent_id", COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at"
    WHERE NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
    UNION ALL
    SELECT '', COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at"
    WHERE NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
    ON CONFLICT ("agent_id", "thread_key") DO UPDATE SET
        "runs" = "runs" + 1, "calls" = "calls" + excluded."calls", "oldest_at" = MIN("oldest_at", excluded."oldest_at");
END;;

CREATE TRIGGER "workflow_snapshots_waiting_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND NEW."tool_call_count" > 0
BEGIN
    INSERT INTO "waiting_tool_calls" ("run_id", "tool_call_id", "workflow_name", "agent_id", "thread_id", "resource_id", "tool_name", "waiting_since")
    SELECT NEW."run_id", json_extract("c"."value", '$.toolCallId'), NEW."workflow_name", NEW."agent_id", NEW."thread_id", NEW."resource_id",
        json_extract("c"."value", '$.toolName'), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    FROM json_each(NEW."tool_calls") AS "c"
    WHERE true -- SQLite needs a WHERE between a SELECT and its ON CONFLICT
    ON CONFLICT DO NOTHING;
END;;

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
END;;
