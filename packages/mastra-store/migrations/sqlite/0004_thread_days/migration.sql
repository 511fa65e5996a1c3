-- suspended_thread_days: suspended_threads split by the UTC day the runs were created, so that a date
-- filter of whole days reads its threads and totals as a range of rows instead of grouping every run
-- it matches. Filled from the runs already waiting, then kept exact by the triggers below in the
-- same transaction as every snapshot write (the same steps as suspended_threads', with the day).
CREATE TABLE "suspended_thread_days" (
    "agent_id" TEXT NOT NULL,
    "day" DATETIME NOT NULL,
    "thread_key" TEXT NOT NULL,
    "runs" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,
    "oldest_at" DATETIME NOT NULL,

    PRIMARY KEY ("agent_id", "day", "thread_key")
);

CREATE INDEX "suspended_thread_days_agent_id_day_oldest_at_thread_key_calls_idx" ON "suspended_thread_days"("agent_id", "day", "oldest_at", "thread_key", "calls");

INSERT INTO "suspended_thread_days" ("agent_id", "day", "thread_key", "runs", "calls", "oldest_at")
SELECT "agent_id", strftime('%Y-%m-%dT00:00:00.000+00:00', "created_at"), COALESCE("thread_id", ''), COUNT(*), SUM("tool_call_count"), MIN("updated_at")
FROM "workflow_snapshots" WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL
GROUP BY 1, 2, 3
UNION ALL
SELECT '', strftime('%Y-%m-%dT00:00:00.000+00:00', "created_at"), COALESCE("thread_id", ''), COUNT(*), SUM("tool_call_count"), MIN("updated_at")
FROM "workflow_snapshots" WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL
GROUP BY 1, 2, 3;

CREATE TRIGGER "workflow_snapshots_thread_days_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
BEGIN
    INSERT INTO "suspended_thread_days" ("agent_id", "day", "thread_key", "runs", "calls", "oldest_at")
    VALUES ('', strftime('%Y-%m-%dT00:00:00.000+00:00', NEW."created_at"), COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at"),
           (NEW."agent_id", strftime('%Y-%m-%dT00:00:00.000+00:00', NEW."created_at"), COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at")
    ON CONFLICT ("agent_id", "day", "thread_key") DO UPDATE SET
        "runs" = "runs" + 1, "calls" = "calls" + excluded."calls", "oldest_at" = MIN("oldest_at", excluded."oldest_at");
END;

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
END;

CREATE TRIGGER "workflow_snapshots_thread_days_update"
AFTER UPDATE OF "status", "agent_id", "thread_id", "created_at", "updated_at", "tool_call_count" ON "workflow_snapshots"
WHEN (OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL) OR (NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL)
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
