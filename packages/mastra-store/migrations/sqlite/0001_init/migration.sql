-- The snapshot store's tables (Prisma models in prisma/store.prisma) and the triggers that keep its
-- per-agent, per-hour and per-thread summaries exact in the same transaction as every snapshot write.

CREATE TABLE "suspended_run_counts" (
    "agent_id" TEXT NOT NULL PRIMARY KEY,
    "runs" INTEGER NOT NULL
);

CREATE TABLE "suspended_run_hours" (
    "hour" DATETIME NOT NULL,
    "agent_id" TEXT NOT NULL,
    "runs" INTEGER NOT NULL,

    PRIMARY KEY ("hour", "agent_id")
);

CREATE TABLE "workflow_snapshots" (
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
    "snapshot" TEXT NOT NULL,

    PRIMARY KEY ("workflow_name", "run_id")
);

CREATE TABLE "suspended_threads" (
    "agent_id" TEXT NOT NULL,
    "thread_key" TEXT NOT NULL,
    "runs" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,
    "oldest_at" DATETIME NOT NULL,

    PRIMARY KEY ("agent_id", "thread_key")
);

CREATE INDEX "suspended_run_hours_agent_id_hour_runs_idx" ON "suspended_run_hours"("agent_id", "hour", "runs");

CREATE INDEX "workflow_snapshots_run_id_idx" ON "workflow_snapshots"("run_id");

CREATE INDEX "workflow_snapshots_workflow_name_status_created_at_idx" ON "workflow_snapshots"("workflow_name", "status", "created_at");

CREATE INDEX "workflow_snapshots_workflow_name_resource_id_created_at_idx" ON "workflow_snapshots"("workflow_name", "resource_id", "created_at");

CREATE INDEX "workflow_snapshots_agent_id_status_created_at_run_id_workflow_name_idx" ON "workflow_snapshots"("agent_id", "status", "created_at", "run_id", "workflow_name");

CREATE INDEX "workflow_snapshots_status_updated_at_agent_id_thread_id_tool_call_count_idx" ON "workflow_snapshots"("status", "updated_at", "agent_id", "thread_id", "tool_call_count");

CREATE INDEX "suspended_threads_agent_id_oldest_at_thread_key_calls_idx" ON "suspended_threads"("agent_id", "oldest_at", "thread_key", "calls");

CREATE INDEX "workflow_snapshots_status_created_at_run_id_agent_id_workflow_name_thread_id_updated_at_tool_call_count_idx" ON "workflow_snapshots"("status", "created_at", "run_id", "agent_id", "workflow_name", "thread_id", "updated_at", "tool_call_count");

CREATE INDEX "workflow_snapshots_status_resource_id_created_at_run_id_agent_id_workflow_name_thread_id_updated_at_tool_call_count_idx" ON "workflow_snapshots"("status", "resource_id", "created_at", "run_id", "agent_id", "workflow_name", "thread_id", "updated_at", "tool_call_count");

CREATE INDEX "workflow_snapshots_status_thread_id_created_at_run_id_agent_id_workflow_name_updated_at_tool_call_count_idx" ON "workflow_snapshots"("status", "thread_id", "created_at", "run_id", "agent_id", "workflow_name", "updated_at", "tool_call_count");

CREATE TRIGGER "workflow_snapshots_count_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
BEGIN
    INSERT INTO "suspended_run_counts" ("agent_id", "runs") VALUES (NEW."agent_id", 1)
    ON CONFLICT ("agent_id") DO UPDATE SET "runs" = "runs" + 1;
END;

CREATE TRIGGER "workflow_snapshots_count_delete" AFTER DELETE ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
BEGIN
    UPDATE "suspended_run_counts" SET "runs" = "runs" - 1 WHERE "agent_id" = OLD."agent_id";
END;

CREATE TRIGGER "workflow_snapshots_count_update" AFTER UPDATE OF "status", "agent_id" ON "workflow_snapshots"
WHEN (OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL) OR (NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL)
BEGIN
    UPDATE "suspended_run_counts" SET "runs" = "runs" - 1
    WHERE OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL AND "agent_id" = OLD."agent_id";
    INSERT INTO "suspended_run_counts" ("agent_id", "runs")
    SELECT NEW."agent_id", 1 WHERE NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
    ON CONFLICT ("agent_id") DO UPDATE SET "runs" = "runs" + 1;
END;

CREATE TRIGGER "workflow_snapshots_hours_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
BEGIN
    INSERT INTO "suspended_run_hours" ("hour", "agent_id", "runs")
    VALUES (strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), NEW."agent_id", 1)
    ON CONFLICT ("hour", "agent_id") DO UPDATE SET "runs" = "runs" + 1;
END;

CREATE TRIGGER "workflow_snapshots_hours_delete" AFTER DELETE ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
BEGIN
    UPDATE "suspended_run_hours" SET "runs" = "runs" - 1
    WHERE "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") AND "agent_id" = OLD."agent_id";
    DELETE FROM "suspended_run_hours"
    WHERE "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") AND "agent_id" = OLD."agent_id" AND "runs" <= 0;
END;

CREATE TRIGGER "workflow_snapshots_hours_update" AFTER UPDATE OF "status", "agent_id", "created_at" ON "workflow_snapshots"
WHEN (OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL) OR (NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL)
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

CREATE TRIGGER "workflow_snapshots_threads_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL
BEGIN
    INSERT INTO "suspended_threads" ("agent_id", "thread_key", "runs", "calls", "oldest_at")
    VALUES ('', COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at"),
           (NEW."agent_id", COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at")
    ON CONFLICT ("agent_id", "thread_key") DO UPDATE SET
        "runs" = "runs" + 1, "calls" = "calls" + excluded."calls", "oldest_at" = MIN("oldest_at", excluded."oldest_at");
END;

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
END;

CREATE TRIGGER "workflow_snapshots_threads_update"
AFTER UPDATE OF "status", "agent_id", "thread_id", "updated_at", "tool_call_count" ON "workflow_snapshots"
WHEN (OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL) OR (NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL)
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

