-- DropIndex
DROP INDEX "workflow_snapshots_status_thread_id_created_at_run_id_agent_idx";

-- AlterTable
ALTER TABLE "workflow_snapshots" ADD COLUMN     "tool_call_count" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "suspended_threads" (
    "agent_id" TEXT NOT NULL,
    "thread_key" TEXT NOT NULL,
    "runs" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,
    "oldest_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "suspended_threads_pkey" PRIMARY KEY ("agent_id","thread_key")
);

-- CreateIndex
CREATE INDEX "suspended_threads_agent_id_oldest_at_thread_key_calls_idx" ON "suspended_threads"("agent_id", "oldest_at", "thread_key", "calls");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_thread_id_updated_at_run_id_agent_idx" ON "workflow_snapshots"("status", "thread_id", "updated_at", "run_id", "agent_id", "tool_call_count", "workflow_name");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_updated_at_agent_id_thread_id_too_idx" ON "workflow_snapshots"("status", "updated_at", "agent_id", "thread_id", "tool_call_count");

-- Written by hand (Prisma's schema has no triggers): keep suspended_threads exact. A suspended run
-- with an owning agent counts in its (agent, thread) row and in its thread's all-agents row
-- (agent_id ''); runs without a thread share the thread_key ''. A run leaving a thread takes its
-- calls with it; if it was the oldest, the thread's next oldest is looked up in the thread's index.
-- (A statement that removes several runs of a thread at once may find none left before the last of
-- them is counted out: the old value stays until that row goes.)
UPDATE "workflow_snapshots" SET "tool_call_count" = json_array_length("tool_calls"::json) WHERE "tool_calls" IS NOT NULL;

INSERT INTO "suspended_threads" ("agent_id", "thread_key", "runs", "calls", "oldest_at")
SELECT "agent_id", COALESCE("thread_id", ''), COUNT(*), SUM("tool_call_count"), MIN("updated_at") FROM "workflow_snapshots"
WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY 1, 2;
INSERT INTO "suspended_threads" ("agent_id", "thread_key", "runs", "calls", "oldest_at")
SELECT '', COALESCE("thread_id", ''), COUNT(*), SUM("tool_call_count"), MIN("updated_at") FROM "workflow_snapshots"
WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY 2;

CREATE FUNCTION "workflow_snapshots_threads_suspended"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL THEN
        -- Takes the thread's row locks first: the look-up below runs after, as its own statement,
        -- so it sees every run another transaction added to the thread before it let go of them.
        UPDATE "suspended_threads" SET "runs" = "runs" - 1, "calls" = "calls" - OLD."tool_call_count"
        WHERE "agent_id" IN (OLD."agent_id", '') AND "thread_key" = COALESCE(OLD."thread_id", '');
        DELETE FROM "suspended_threads"
        WHERE "agent_id" IN (OLD."agent_id", '') AND "thread_key" = COALESCE(OLD."thread_id", '') AND "runs" <= 0;
        IF OLD."thread_id" IS NULL THEN
            UPDATE "suspended_threads" AS "t" SET "oldest_at" = COALESCE((
                SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
                WHERE "w"."status" = 'suspended' AND "w"."thread_id" IS NULL AND "w"."agent_id" IS NOT NULL
                  AND ("t"."agent_id" = '' OR "w"."agent_id" = "t"."agent_id")), "t"."oldest_at")
            WHERE "t"."agent_id" IN (OLD."agent_id", '') AND "t"."thread_key" = '' AND "t"."oldest_at" = OLD."updated_at";
        ELSE
            UPDATE "suspended_threads" AS "t" SET "oldest_at" = COALESCE((
                SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
                WHERE "w"."status" = 'suspended' AND "w"."thread_id" = OLD."thread_id" AND "w"."agent_id" IS NOT NULL
                  AND ("t"."agent_id" = '' OR "w"."agent_id" = "t"."agent_id")), "t"."oldest_at")
            WHERE "t"."agent_id" IN (OLD."agent_id", '') AND "t"."thread_key" = OLD."thread_id" AND "t"."oldest_at" = OLD."updated_at";
        END IF;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL THEN
        INSERT INTO "suspended_threads" AS "t" ("agent_id", "thread_key", "runs", "calls", "oldest_at")
        VALUES ('', COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at"),
               (NEW."agent_id", COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at")
        ON CONFLICT ("agent_id", "thread_key") DO UPDATE SET
            "runs" = "t"."runs" + 1, "calls" = "t"."calls" + excluded."calls", "oldest_at" = LEAST("t"."oldest_at", excluded."oldest_at");
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER "workflow_snapshots_threads_suspended"
AFTER INSERT OR DELETE OR UPDATE OF "status", "agent_id", "thread_id", "updated_at", "tool_call_count" ON "workflow_snapshots"
FOR EACH ROW EXECUTE FUNCTION "workflow_snapshots_threads_suspended"();

-- TRUNCATE skips row triggers: start the threads over.
CREATE FUNCTION "workflow_snapshots_threads_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "suspended_threads";
    RETURN NULL;
END
$$;

CREATE TRIGGER "workflow_snapshots_threads_truncate"
AFTER TRUNCATE ON "workflow_snapshots"
FOR EACH STATEMENT EXECUTE FUNCTION "workflow_snapshots_threads_reset"();
