-- CreateTable
CREATE TABLE "suspended_run_hours" (
    "hour" TIMESTAMP(3) NOT NULL,
    "agent_id" TEXT NOT NULL,
    "runs" INTEGER NOT NULL,

    CONSTRAINT "suspended_run_hours_pkey" PRIMARY KEY ("hour","agent_id")
);

-- CreateIndex
CREATE INDEX "suspended_run_hours_agent_id_hour_runs_idx" ON "suspended_run_hours"("agent_id", "hour", "runs");

-- Written by hand (Prisma's schema has no triggers): keep suspended_run_hours exact, as
-- suspended_run_counts is kept. An hour is createdAt truncated to the hour (timestamps are UTC).
INSERT INTO "suspended_run_hours" ("hour", "agent_id", "runs")
SELECT date_trunc('hour', "created_at"), "agent_id", COUNT(*) FROM "workflow_snapshots"
WHERE "status" = 'suspended' AND "agent_id" IS NOT NULL GROUP BY 1, 2;

CREATE FUNCTION "workflow_snapshots_hours_suspended"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        IF OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL THEN
            UPDATE "suspended_run_hours" SET "runs" = "runs" - 1
            WHERE "hour" = date_trunc('hour', OLD."created_at") AND "agent_id" = OLD."agent_id";
            DELETE FROM "suspended_run_hours"
            WHERE "hour" = date_trunc('hour', OLD."created_at") AND "agent_id" = OLD."agent_id" AND "runs" <= 0;
        END IF;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        IF NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL THEN
            INSERT INTO "suspended_run_hours" ("hour", "agent_id", "runs") VALUES (date_trunc('hour', NEW."created_at"), NEW."agent_id", 1)
            ON CONFLICT ("hour", "agent_id") DO UPDATE SET "runs" = "suspended_run_hours"."runs" + 1;
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER "workflow_snapshots_hours_suspended"
AFTER INSERT OR DELETE OR UPDATE OF "status", "agent_id", "created_at" ON "workflow_snapshots"
FOR EACH ROW EXECUTE FUNCTION "workflow_snapshots_hours_suspended"();

-- TRUNCATE skips row triggers: start the hours over.
CREATE FUNCTION "workflow_snapshots_hours_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "suspended_run_hours";
    RETURN NULL;
END
$$;

CREATE TRIGGER "workflow_snapshots_hours_truncate"
AFTER TRUNCATE ON "workflow_snapshots"
FOR EACH STATEMENT EXECUTE FUNCTION "workflow_snapshots_hours_reset"();
