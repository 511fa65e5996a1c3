-- Written by hand instead of Prisma's table redefinition: redefining workflow_snapshots would drop
-- the triggers that keep suspended_run_counts and suspended_run_hours exact.

-- AlterTable
ALTER TABLE "workflow_snapshots" ADD COLUMN "tool_call_count" INTEGER NOT NULL DEFAULT 0;
UPDATE "workflow_snapshots" SET "tool_call_count" = json_array_length("tool_calls") WHERE "tool_calls" IS NOT NULL;

-- DropIndex
DROP INDEX "workflow_snapshots_status_thread_id_created_at_run_id_agent_id_workflow_name_idx";

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_thread_id_updated_at_agent_id_tool_call_count_run_id_workflow_name_idx" ON "workflow_snapshots"("status", "thread_id", "updated_at", "agent_id", "tool_call_count", "run_id", "workflow_name");
CREATE INDEX "workflow_snapshots_status_updated_at_agent_id_thread_id_tool_call_count_idx" ON "workflow_snapshots"("status", "updated_at", "agent_id", "thread_id", "tool_call_count");

-- CreateTable
CREATE TABLE "suspended_threads" (
    "agent_id" TEXT NOT NULL,
    "thread_key" TEXT NOT NULL,
    "runs" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,
    "oldest_at" DATETIME NOT NULL,

    PRIMARY KEY ("agent_id", "thread_key")
);

-- CreateIndex
CREATE INDEX "suspended_threads_agent_id_oldest_at_thread_key_calls_idx" ON "suspended_threads"("agent_id", "oldest_at", "thread_key", "calls");

-- Written by hand (Prisma's schema has no triggers): keep suspended_threads exact. A suspended run
-- with an owning agent counts in its (agent, thread) row and in its thread's all-agents row
-- (agent_id ''); runs without a thread share the thread_key ''. A run leaving a thread takes its
-- calls with it; if it was the oldest, the thread's next oldest is looked up in the thread's index.
-- (A statement that removes several runs of a thread at once may find none left before the last of
-- them is counted out: the old value stays until that row goes.)
INSERT INTO "suspended_threads" ("agent_id", "thread_key", "runs", "calls", "oldest_at")
SELECT "agent_id", COALESCE("thread_id", ''), COUNT(*), SUM("tool_call_count"), MIN("updated_at") FROM "workflow_snapshots"
WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY 1, 2;
INSERT INTO "suspended_threads" ("agent_id", "thread_key", "runs", "calls", "oldest_at")
SELECT '', COALESCE("thread_id", ''), COUNT(*), SUM("tool_call_count"), MIN("updated_at") FROM "workflow_snapshots"
WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY 2;

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
