-- CreateTable
CREATE TABLE "suspended_run_hours" (
    "hour" DATETIME NOT NULL,
    "agent_id" TEXT NOT NULL,
    "runs" INTEGER NOT NULL,

    PRIMARY KEY ("hour", "agent_id")
);

-- CreateIndex
CREATE INDEX "suspended_run_hours_agent_id_hour_runs_idx" ON "suspended_run_hours"("agent_id", "hour", "runs");

-- Written by hand (Prisma's schema has no triggers): keep suspended_run_hours exact, as
-- suspended_run_counts is kept. An hour is createdAt truncated to the hour in the text form Prisma
-- stores DateTime values in (UTC, 'YYYY-MM-DDTHH:MM:SS.sss+00:00'); strftime reads any ISO form.
INSERT INTO "suspended_run_hours" ("hour", "agent_id", "runs")
SELECT strftime('%Y-%m-%dT%H:00:00.000+00:00', "created_at"), "agent_id", COUNT(*) FROM "workflow_snapshots"
WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY 1, 2;

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
