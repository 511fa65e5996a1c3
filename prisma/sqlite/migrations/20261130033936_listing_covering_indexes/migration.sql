-- DropIndex
DROP INDEX "workflow_snapshots_status_thread_id_created_at_idx";

-- DropIndex
DROP INDEX "workflow_snapshots_status_resource_id_created_at_idx";

-- DropIndex
DROP INDEX "workflow_snapshots_status_agent_id_created_at_idx";

-- CreateTable
CREATE TABLE "suspended_run_counts" (
    "agent_id" TEXT NOT NULL PRIMARY KEY,
    "runs" INTEGER NOT NULL
);

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_created_at_run_id_agent_id_idx" ON "workflow_snapshots"("status", "created_at", "run_id", "agent_id");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_agent_id_created_at_run_id_idx" ON "workflow_snapshots"("status", "agent_id", "created_at", "run_id");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_resource_id_created_at_run_id_agent_id_idx" ON "workflow_snapshots"("status", "resource_id", "created_at", "run_id", "agent_id");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_thread_id_created_at_run_id_agent_id_idx" ON "workflow_snapshots"("status", "thread_id", "created_at", "run_id", "agent_id");

-- Written by hand (Prisma's schema has no triggers): keep suspended_run_counts exact. A row counts
-- while it is a suspended agent run (status 'suspended' and agent_id set), whatever writes it.
INSERT INTO "suspended_run_counts" ("agent_id", "runs")
SELECT "agent_id", COUNT(*) FROM "workflow_snapshots"
WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY "agent_id";

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
