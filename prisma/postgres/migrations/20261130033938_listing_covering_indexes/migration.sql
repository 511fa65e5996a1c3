-- DropIndex
DROP INDEX "workflow_snapshots_status_agent_id_created_at_idx";

-- DropIndex
DROP INDEX "workflow_snapshots_status_resource_id_created_at_idx";

-- DropIndex
DROP INDEX "workflow_snapshots_status_thread_id_created_at_idx";

-- CreateTable
CREATE TABLE "suspended_run_counts" (
    "agent_id" TEXT NOT NULL,
    "runs" INTEGER NOT NULL,

    CONSTRAINT "suspended_run_counts_pkey" PRIMARY KEY ("agent_id")
);

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_created_at_run_id_agent_id_idx" ON "workflow_snapshots"("status", "created_at", "run_id", "agent_id");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_agent_id_created_at_run_id_idx" ON "workflow_snapshots"("status", "agent_id", "created_at", "run_id");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_resource_id_created_at_run_id_age_idx" ON "workflow_snapshots"("status", "resource_id", "created_at", "run_id", "agent_id");

-- CreateIndex
CREATE INDEX "workflow_snapshots_status_thread_id_created_at_run_id_agent_idx" ON "workflow_snapshots"("status", "thread_id", "created_at", "run_id", "agent_id");

-- Written by hand (Prisma's schema has no triggers): keep suspended_run_counts exact. A row counts
-- while it is a suspended agent run (status 'suspended' and agent_id set), whatever writes it.
INSERT INTO "suspended_run_counts" ("agent_id", "runs")
SELECT "agent_id", COUNT(*) FROM "workflow_snapshots"
WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY "agent_id";

CREATE FUNCTION "workflow_snapshots_count_suspended"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        IF OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL THEN
            UPDATE "suspended_run_counts" SET "runs" = "runs" - 1 WHERE "agent_id" = OLD."agent_id";
        END IF;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        IF NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL THEN
            INSERT INTO "suspended_run_counts" ("agent_id", "runs") VALUES (NEW."agent_id", 1)
            ON CONFLICT ("agent_id") DO UPDATE SET "runs" = "suspended_run_counts"."runs" + 1;
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER "workflow_snapshots_count_suspended"
AFTER INSERT OR DELETE OR UPDATE OF "status", "agent_id" ON "workflow_snapshots"
FOR EACH ROW EXECUTE FUNCTION "workflow_snapshots_count_suspended"();

-- TRUNCATE skips row triggers: start the counts over.
CREATE FUNCTION "workflow_snapshots_count_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "suspended_run_counts";
    RETURN NULL;
END
$$;

CREATE TRIGGER "workflow_snapshots_count_truncate"
AFTER TRUNCATE ON "workflow_snapshots"
FOR EACH STATEMENT EXECUTE FUNCTION "workflow_snapshots_count_reset"();
