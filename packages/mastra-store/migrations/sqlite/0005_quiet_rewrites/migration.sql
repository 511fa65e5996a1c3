-- Rewrites of a waiting run (Mastra persists a suspended run again, the same calls, a later
-- updatedAt) no longer move every summary down and up again. The update triggers of the counts,
-- hours, threads and thread days fire only when the run moves between their rows (status, owner,
-- thread, number of calls, creation hour or day); a rewrite that only changes updatedAt fixes
-- the thread's (and its day's) oldest wait and nothing else. Every write to a suspended run paid
-- ~13 trigger statements for nothing; a rewrite now pays two. The summaries stay exact
-- (tests/queue/threads.test.ts compares them with the runs after every kind of write).
DROP TRIGGER "workflow_snapshots_count_update";
DROP TRIGGER "workflow_snapshots_hours_update";
DROP TRIGGER "workflow_snapshots_threads_update";
DROP TRIGGER "workflow_snapshots_thread_days_update";

CREATE TRIGGER "workflow_snapshots_count_update" AFTER UPDATE OF "status", "agent_id" ON "workflow_snapshots"
WHEN ((OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL) OR (NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL))
    AND (OLD."status" IS NOT NEW."status" OR OLD."agent_id" IS NOT NEW."agent_id")
BEGIN
    UPDATE "suspended_run_counts" SET "runs" = "runs" - 1
    WHERE OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL AND "agent_id" = OLD."agent_id";
    INSERT INTO "suspended_run_counts" ("agent_id", "runs")
    SELECT NEW."agent_id", 1 WHERE NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
    ON CONFLICT ("agent_id") DO UPDATE SET "runs" = "runs" + 1;
END;

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
END;

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
END;

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
END;

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
END;

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
END;
