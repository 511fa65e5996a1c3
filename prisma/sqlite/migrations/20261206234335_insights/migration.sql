-- CreateTable
CREATE TABLE "call_reviews" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "resource_id" TEXT,
    "waiting_since" DATETIME,
    "decided_at" DATETIME,
    "decided_by" TEXT,
    "action" TEXT,
    "source" TEXT,
    "risk" TEXT,
    "context_opened" BOOLEAN,

    PRIMARY KEY ("run_id", "tool_call_id")
);

-- CreateTable
CREATE TABLE "call_views" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "opened_at" DATETIME NOT NULL,
    "context_opened_at" DATETIME,

    PRIMARY KEY ("run_id", "tool_call_id", "reviewer")
);

-- CreateTable
CREATE TABLE "insight_targets" (
    "risk" TEXT NOT NULL PRIMARY KEY,
    "minutes" INTEGER NOT NULL
);

-- CreateTable
CREATE TABLE "insight_days" (
    "day" INTEGER NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "timed" INTEGER NOT NULL,
    "within_target" INTEGER NOT NULL,
    "wait_ms" BIGINT NOT NULL,

    PRIMARY KEY ("day", "agent_id", "tool_name", "risk", "source", "action")
);

-- CreateTable
CREATE TABLE "insight_hours" (
    "hour" INTEGER NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "timed" INTEGER NOT NULL,
    "within_target" INTEGER NOT NULL,
    "wait_ms" BIGINT NOT NULL,

    PRIMARY KEY ("hour", "agent_id", "tool_name", "risk", "source", "action")
);

-- CreateTable
CREATE TABLE "insight_wait_days" (
    "day" INTEGER NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,

    PRIMARY KEY ("day", "agent_id", "tool_name", "risk", "bucket")
);

-- CreateTable
CREATE TABLE "insight_reviewer_days" (
    "day" INTEGER NOT NULL,
    "reviewer" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "approved" INTEGER NOT NULL,
    "unopened" INTEGER NOT NULL,
    "quick" INTEGER NOT NULL,
    "streak" INTEGER NOT NULL,

    PRIMARY KEY ("day", "reviewer", "agent_id", "tool_name", "risk")
);

-- CreateTable
CREATE TABLE "insight_reviewer_waits" (
    "day" INTEGER NOT NULL,
    "reviewer" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,

    PRIMARY KEY ("day", "reviewer", "bucket")
);

-- CreateTable
CREATE TABLE "insight_streaks" (
    "reviewer" TEXT NOT NULL PRIMARY KEY,
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "run_length" INTEGER NOT NULL
);

-- CreateIndex
CREATE INDEX "call_reviews_resource_id_decided_at_idx" ON "call_reviews"("resource_id", "decided_at");

-- CreateIndex
CREATE INDEX "call_reviews_resource_id_waiting_since_idx" ON "call_reviews"("resource_id", "waiting_since");

-- The insights' rollups, kept exact by triggers in the transaction of the change they count (the
-- README's "Insights: how each number is counted"). Timestamps are the adapter's ISO 8601 text in
-- UTC; days and hours are counted since 1970-01-01 UTC.

-- A call that starts waiting counts as arrived in its day and hour.
CREATE TRIGGER "call_reviews_arrived" AFTER INSERT ON "call_reviews"
WHEN NEW."waiting_since" IS NOT NULL
BEGIN
    INSERT INTO "insight_days" ("day", "agent_id", "tool_name", "risk", "source", "action", "calls", "timed", "within_target", "wait_ms")
    VALUES (CAST(strftime('%s', NEW."waiting_since") AS INTEGER) / 86400, NEW."agent_id", NEW."tool_name",
        COALESCE((SELECT "risk" FROM "call_rule_matches" WHERE "run_id" = NEW."run_id" AND "tool_call_id" = NEW."tool_call_id"), 'unrated'),
        'arrived', 'wait', 1, 0, 0, 0)
    ON CONFLICT ("day", "agent_id", "tool_name", "risk", "source", "action") DO UPDATE SET "calls" = "calls" + 1;
    INSERT INTO "insight_hours" ("hour", "agent_id", "tool_name", "risk", "source", "action", "calls", "timed", "within_target", "wait_ms")
    VALUES (CAST(strftime('%s', NEW."waiting_since") AS INTEGER) / 3600, NEW."agent_id", NEW."tool_name",
        COALESCE((SELECT "risk" FROM "call_rule_matches" WHERE "run_id" = NEW."run_id" AND "tool_call_id" = NEW."tool_call_id"), 'unrated'),
        'arrived', 'wait', 1, 0, 0, 0)
    ON CONFLICT ("hour", "agent_id", "tool_name", "risk", "source", "action") DO UPDATE SET "calls" = "calls" + 1;
END;

-- A decision carried out (or a call expired, or marked expired) ends the call's review.
CREATE TRIGGER "tool_call_decisions_insights" AFTER UPDATE OF "state" ON "tool_call_decisions"
WHEN NEW."state" = 'applied' AND OLD."state" <> 'applied'
BEGIN
    INSERT INTO "call_reviews" ("run_id", "tool_call_id", "agent_id", "tool_name", "resource_id")
    VALUES (NEW."run_id", NEW."tool_call_id", NEW."agent_id", COALESCE(NEW."tool_name", ''), NEW."resource_id")
    ON CONFLICT DO NOTHING;
    UPDATE "call_reviews" SET
        "decided_at" = NEW."decided_at",
        "decided_by" = NEW."reviewer",
        "action" = NEW."action",
        "source" = CASE WHEN NEW."action" = 'expire' THEN 'expiry' WHEN NEW."rule_id" IS NOT NULL THEN 'rule'
            WHEN NEW."reviewer" LIKE 'suggestion by %' THEN 'suggestion' ELSE 'person' END,
        "risk" = COALESCE((SELECT "risk" FROM "call_rule_matches" WHERE "run_id" = NEW."run_id" AND "tool_call_id" = NEW."tool_call_id"), 'unrated'),
        "context_opened" = EXISTS (SELECT 1 FROM "call_views" WHERE "run_id" = NEW."run_id" AND "tool_call_id" = NEW."tool_call_id"
            AND "reviewer" = NEW."reviewer" AND "context_opened_at" IS NOT NULL)
    WHERE "run_id" = NEW."run_id" AND "tool_call_id" = NEW."tool_call_id" AND "decided_at" IS NULL;

    INSERT INTO "insight_days" ("day", "agent_id", "tool_name", "risk", "source", "action", "calls", "timed", "within_target", "wait_ms")
    SELECT CAST(strftime('%s', "r"."decided_at") AS INTEGER) / 86400, "r"."agent_id", "r"."tool_name", "r"."risk", "r"."source", "r"."action", 1,
        CASE WHEN "r"."waiting_since" IS NULL THEN 0 ELSE 1 END,
        CASE WHEN "r"."waiting_since" IS NOT NULL AND (julianday("r"."decided_at") - julianday("r"."waiting_since")) * 86400000.0
            < COALESCE((SELECT "minutes" FROM "insight_targets" WHERE "risk" = "r"."risk"), 0) * 60000 THEN 1 ELSE 0 END,
        CASE WHEN "r"."waiting_since" IS NULL THEN 0
            ELSE max(0, CAST(round((julianday("r"."decided_at") - julianday("r"."waiting_since")) * 86400000.0) AS INTEGER)) END
    FROM "call_reviews" AS "r"
    WHERE "r"."run_id" = NEW."run_id" AND "r"."tool_call_id" = NEW."tool_call_id" AND "r"."decided_at" = NEW."decided_at" AND "r"."decided_by" = NEW."reviewer"
    ON CONFLICT ("day", "agent_id", "tool_name", "risk", "source", "action") DO UPDATE SET
        "calls" = "calls" + 1, "timed" = "timed" + excluded."timed",
        "within_target" = "within_target" + excluded."within_target", "wait_ms" = "wait_ms" + excluded."wait_ms";

    INSERT INTO "insight_hours" ("hour", "agent_id", "tool_name", "risk", "source", "action", "calls", "timed", "within_target", "wait_ms")
    SELECT CAST(strftime('%s', "r"."decided_at") AS INTEGER) / 3600, "r"."agent_id", "r"."tool_name", "r"."risk", "r"."source", "r"."action", 1,
        CASE WHEN "r"."waiting_since" IS NULL THEN 0 ELSE 1 END,
        CASE WHEN "r"."waiting_since" IS NOT NULL AND (julianday("r"."decided_at") - julianday("r"."waiting_since")) * 86400000.0
            < COALESCE((SELECT "minutes" FROM "insight_targets" WHERE "risk" = "r"."risk"), 0) * 60000 THEN 1 ELSE 0 END,
        CASE WHEN "r"."waiting_since" IS NULL THEN 0
            ELSE max(0, CAST(round((julianday("r"."decided_at") - julianday("r"."waiting_since")) * 86400000.0) AS INTEGER)) END
    FROM "call_reviews" AS "r"
    WHERE "r"."run_id" = NEW."run_id" AND "r"."tool_call_id" = NEW."tool_call_id" AND "r"."decided_at" = NEW."decided_at" AND "r"."decided_by" = NEW."reviewer"
    ON CONFLICT ("hour", "agent_id", "tool_name", "risk", "source", "action") DO UPDATE SET
        "calls" = "calls" + 1, "timed" = "timed" + excluded."timed",
        "within_target" = "within_target" + excluded."within_target", "wait_ms" = "wait_ms" + excluded."wait_ms";

    -- A person's decision: the reviewer's run of identical approvals (same agent and tool) goes on or restarts.
    INSERT INTO "insight_streaks" ("reviewer", "agent_id", "tool_name", "run_length")
    SELECT "r"."decided_by", "r"."agent_id", "r"."tool_name", CASE WHEN "r"."action" = 'approve' THEN 1 ELSE 0 END
    FROM "call_reviews" AS "r"
    WHERE "r"."run_id" = NEW."run_id" AND "r"."tool_call_id" = NEW."tool_call_id" AND "r"."decided_at" = NEW."decided_at" AND "r"."decided_by" = NEW."reviewer" AND "r"."source" = 'person'
    ON CONFLICT ("reviewer") DO UPDATE SET
        "run_length" = CASE WHEN excluded."run_length" = 1 AND "agent_id" = excluded."agent_id" AND "tool_name" = excluded."tool_name"
            THEN "run_length" + 1 ELSE excluded."run_length" END,
        "agent_id" = excluded."agent_id", "tool_name" = excluded."tool_name";

    INSERT INTO "insight_wait_days" ("day", "agent_id", "tool_name", "risk", "bucket", "calls")
    SELECT CAST(strftime('%s', "r"."decided_at") AS INTEGER) / 86400, "r"."agent_id", "r"."tool_name", "r"."risk", CASE WHEN "r"."waiting_since" IS NULL THEN -1
            ELSE CAST(floor(ln(1 + max(0, (julianday("r"."decided_at") - julianday("r"."waiting_since")) * 86400.0)) / ln(1.25)) AS INTEGER) END, 1
    FROM "call_reviews" AS "r"
    WHERE "r"."run_id" = NEW."run_id" AND "r"."tool_call_id" = NEW."tool_call_id" AND "r"."decided_at" = NEW."decided_at" AND "r"."decided_by" = NEW."reviewer" AND "r"."source" = 'person'
    ON CONFLICT ("day", "agent_id", "tool_name", "risk", "bucket") DO UPDATE SET "calls" = "calls" + 1;

    INSERT INTO "insight_reviewer_waits" ("day", "reviewer", "bucket", "calls")
    SELECT CAST(strftime('%s', "r"."decided_at") AS INTEGER) / 86400, "r"."decided_by", CASE WHEN "r"."waiting_since" IS NULL THEN -1
            ELSE CAST(floor(ln(1 + max(0, (julianday("r"."decided_at") - julianday("r"."waiting_since")) * 86400.0)) / ln(1.25)) AS INTEGER) END, 1
    FROM "call_reviews" AS "r"
    WHERE "r"."run_id" = NEW."run_id" AND "r"."tool_call_id" = NEW."tool_call_id" AND "r"."decided_at" = NEW."decided_at" AND "r"."decided_by" = NEW."reviewer" AND "r"."source" = 'person'
    ON CONFLICT ("day", "reviewer", "bucket") DO UPDATE SET "calls" = "calls" + 1;

    INSERT INTO "insight_reviewer_days" ("day", "reviewer", "agent_id", "tool_name", "risk", "calls", "approved", "unopened", "quick", "streak")
    SELECT CAST(strftime('%s', "r"."decided_at") AS INTEGER) / 86400, "r"."decided_by", "r"."agent_id", "r"."tool_name", "r"."risk", 1,
        CASE WHEN "r"."action" = 'approve' THEN 1 ELSE 0 END,
        CASE WHEN "r"."context_opened" THEN 0 ELSE 1 END,
        CASE WHEN "r"."action" = 'approve' AND NOT "r"."context_opened" AND EXISTS (
            SELECT 1 FROM "call_views" AS "v" WHERE "v"."run_id" = "r"."run_id" AND "v"."tool_call_id" = "r"."tool_call_id"
                AND "v"."reviewer" = "r"."decided_by" AND (julianday("r"."decided_at") - julianday("v"."opened_at")) * 86400.0 <= 5) THEN 1 ELSE 0 END,
        CASE WHEN "r"."action" = 'approve' AND (SELECT "run_length" FROM "insight_streaks" WHERE "reviewer" = "r"."decided_by") >= 10 THEN 1 ELSE 0 END
    FROM "call_reviews" AS "r"
    WHERE "r"."run_id" = NEW."run_id" AND "r"."tool_call_id" = NEW."tool_call_id" AND "r"."decided_at" = NEW."decided_at" AND "r"."decided_by" = NEW."reviewer" AND "r"."source" = 'person'
    ON CONFLICT ("day", "reviewer", "agent_id", "tool_name", "risk") DO UPDATE SET
        "calls" = "calls" + 1, "approved" = "approved" + excluded."approved", "unopened" = "unopened" + excluded."unopened",
        "quick" = "quick" + excluded."quick", "streak" = "streak" + excluded."streak";
END;

-- A call that stopped waiting without a decision here (lib/decisions/outside.ts) ends as "outside".
CREATE TRIGGER "audit_events_decided_outside_insights" AFTER INSERT ON "audit_events"
WHEN NEW."outcome" = 'decided-outside'
BEGIN
    INSERT INTO "call_reviews" ("run_id", "tool_call_id", "agent_id", "tool_name", "resource_id")
    VALUES (NEW."run_id", NEW."tool_call_id", COALESCE(NEW."agent_id", ''), COALESCE(NEW."tool_name", ''), NEW."resource_id")
    ON CONFLICT DO NOTHING;
    UPDATE "call_reviews" SET "decided_at" = NEW."at", "decided_by" = NEW."reviewer", "action" = 'outside', "source" = 'outside',
        "risk" = COALESCE((SELECT "risk" FROM "call_rule_matches" WHERE "run_id" = NEW."run_id" AND "tool_call_id" = NEW."tool_call_id"), 'unrated')
    WHERE "run_id" = NEW."run_id" AND "tool_call_id" = NEW."tool_call_id" AND "decided_at" IS NULL;
    INSERT INTO "insight_days" ("day", "agent_id", "tool_name", "risk", "source", "action", "calls", "timed", "within_target", "wait_ms")
    SELECT CAST(strftime('%s', "r"."decided_at") AS INTEGER) / 86400, "r"."agent_id", "r"."tool_name", "r"."risk", 'outside', 'outside', 1,
        CASE WHEN "r"."waiting_since" IS NULL THEN 0 ELSE 1 END,
        0,
        CASE WHEN "r"."waiting_since" IS NULL THEN 0
            ELSE max(0, CAST(round((julianday("r"."decided_at") - julianday("r"."waiting_since")) * 86400000.0) AS INTEGER)) END
    FROM "call_reviews" AS "r"
    WHERE "r"."run_id" = NEW."run_id" AND "r"."tool_call_id" = NEW."tool_call_id" AND "r"."decided_at" = NEW."at" AND "r"."source" = 'outside'
    ON CONFLICT ("day", "agent_id", "tool_name", "risk", "source", "action") DO UPDATE SET
        "calls" = "calls" + 1, "timed" = "timed" + excluded."timed",
        "within_target" = "within_target" + excluded."within_target", "wait_ms" = "wait_ms" + excluded."wait_ms";

    INSERT INTO "insight_hours" ("hour", "agent_id", "tool_name", "risk", "source", "action", "calls", "timed", "within_target", "wait_ms")
    SELECT CAST(strftime('%s', "r"."decided_at") AS INTEGER) / 3600, "r"."agent_id", "r"."tool_name", "r"."risk", 'outside', 'outside', 1,
        CASE WHEN "r"."waiting_since" IS NULL THEN 0 ELSE 1 END,
        0,
        CASE WHEN "r"."waiting_since" IS NULL THEN 0
            ELSE max(0, CAST(round((julianday("r"."decided_at") - julianday("r"."waiting_since")) * 86400000.0) AS INTEGER)) END
    FROM "call_reviews" AS "r"
    WHERE "r"."run_id" = NEW."run_id" AND "r"."tool_call_id" = NEW."tool_call_id" AND "r"."decided_at" = NEW."at" AND "r"."source" = 'outside'
    ON CONFLICT ("hour", "agent_id", "tool_name", "risk", "source", "action") DO UPDATE SET
        "calls" = "calls" + 1, "timed" = "timed" + excluded."timed",
        "within_target" = "within_target" + excluded."within_target", "wait_ms" = "wait_ms" + excluded."wait_ms";
END;
