-- waiting_call_risks (the console's migration of that name), kept by triggers: installed by
-- lib/db/derived-tables.ts on every deploy after the store's and the console's migrations, when
-- any is missing (a new database; a store migration that rebuilt workflow_snapshots drops those on
-- it), and the table refilled from what waits now, in one transaction. Triggers that change get new
-- names (the installer looks for these names).
DROP TRIGGER IF EXISTS "call_rule_matches_waiting_risk_insert";
DROP TRIGGER IF EXISTS "call_rule_matches_waiting_risk_update";
DROP TRIGGER IF EXISTS "call_rule_matches_waiting_risk_delete";
DROP TRIGGER IF EXISTS "workflow_snapshots_waiting_risks_insert";
DROP TRIGGER IF EXISTS "workflow_snapshots_waiting_risks_update";
DROP TRIGGER IF EXISTS "workflow_snapshots_waiting_risks_delete";
DROP TRIGGER IF EXISTS "waiting_call_risks_thread_insert";
DROP TRIGGER IF EXISTS "waiting_thread_risks_totals_insert";
DROP TRIGGER IF EXISTS "waiting_thread_risks_totals_update";
DROP TRIGGER IF EXISTS "waiting_thread_risks_totals_delete";
DROP TRIGGER IF EXISTS "waiting_call_risks_thread_delete";

-- A call waits when its run is suspended with an agent and the call is in the run's tool_calls.

-- A match with a risk for a call that waits adds its row; a match removed or re-rated follows.
CREATE TRIGGER "call_rule_matches_waiting_risk_insert" AFTER INSERT ON "call_rule_matches"
WHEN NEW."risk" IS NOT NULL
BEGIN
    INSERT INTO "waiting_call_risks" ("workflow_name", "run_id", "tool_call_id", "risk", "risk_rank", "thread_key", "agent_id", "created_at", "updated_at", "tool_call_count")
    SELECT "w"."workflow_name", "w"."run_id", NEW."tool_call_id", NEW."risk",
        CASE NEW."risk" WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 WHEN 'critical' THEN 4 ELSE 0 END,
        COALESCE("w"."thread_id", ''), "w"."agent_id", "w"."created_at", "w"."updated_at", "w"."tool_call_count"
    FROM "workflow_snapshots" AS "w"
    WHERE "w"."run_id" = NEW."run_id" AND "w"."status" = 'suspended' AND "w"."agent_id" IS NOT NULL
        AND EXISTS (SELECT 1 FROM json_each("w"."tool_calls") AS "c" WHERE json_extract("c"."value", '$.toolCallId') = NEW."tool_call_id")
    ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER "call_rule_matches_waiting_risk_update" AFTER UPDATE OF "run_id", "tool_call_id", "risk" ON "call_rule_matches"
BEGIN
    DELETE FROM "waiting_call_risks" WHERE "run_id" = OLD."run_id" AND "tool_call_id" = OLD."tool_call_id";
    INSERT INTO "waiting_call_risks" ("workflow_name", "run_id", "tool_call_id", "risk", "risk_rank", "thread_key", "agent_id", "created_at", "updated_at", "tool_call_count")
    SELECT "w"."workflow_name", "w"."run_id", NEW."tool_call_id", NEW."risk",
        CASE NEW."risk" WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 WHEN 'critical' THEN 4 ELSE 0 END,
        COALESCE("w"."thread_id", ''), "w"."agent_id", "w"."created_at", "w"."updated_at", "w"."tool_call_count"
    FROM "workflow_snapshots" AS "w"
    WHERE NEW."risk" IS NOT NULL AND "w"."run_id" = NEW."run_id" AND "w"."status" = 'suspended' AND "w"."agent_id" IS NOT NULL
        AND EXISTS (SELECT 1 FROM json_each("w"."tool_calls") AS "c" WHERE json_extract("c"."value", '$.toolCallId') = NEW."tool_call_id")
    ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER "call_rule_matches_waiting_risk_delete" AFTER DELETE ON "call_rule_matches"
BEGIN
    DELETE FROM "waiting_call_risks" WHERE "run_id" = OLD."run_id" AND "tool_call_id" = OLD."tool_call_id";
END;

-- A snapshot write that changes what the rows copy rewrites the run's rows: a call that no longer
-- waits (decided, the run moved on or ended) loses its row, the others get the run's new times.
CREATE TRIGGER "workflow_snapshots_waiting_risks_insert" AFTER INSERT ON "workflow_snapshots"
WHEN NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND NEW."tool_calls" IS NOT NULL
BEGIN
    INSERT INTO "waiting_call_risks" ("workflow_name", "run_id", "tool_call_id", "risk", "risk_rank", "thread_key", "agent_id", "created_at", "updated_at", "tool_call_count")
    SELECT NEW."workflow_name", NEW."run_id", "m"."tool_call_id", "m"."risk",
        CASE "m"."risk" WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 WHEN 'critical' THEN 4 ELSE 0 END,
        COALESCE(NEW."thread_id", ''), NEW."agent_id", NEW."created_at", NEW."updated_at", NEW."tool_call_count"
    FROM "call_rule_matches" AS "m"
    WHERE "m"."run_id" = NEW."run_id" AND "m"."risk" IS NOT NULL
        AND EXISTS (SELECT 1 FROM json_each(NEW."tool_calls") AS "c" WHERE json_extract("c"."value", '$.toolCallId') = "m"."tool_call_id")
    ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER "workflow_snapshots_waiting_risks_update"
AFTER UPDATE OF "status", "agent_id", "thread_id", "tool_calls", "tool_call_count", "created_at", "updated_at" ON "workflow_snapshots"
WHEN ((OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL) OR (NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL))
    AND (OLD."status" IS NOT NEW."status" OR OLD."agent_id" IS NOT NEW."agent_id" OR OLD."thread_id" IS NOT NEW."thread_id"
        OR OLD."tool_calls" IS NOT NEW."tool_calls" OR OLD."tool_call_count" IS NOT NEW."tool_call_count"
        OR OLD."created_at" IS NOT NEW."created_at" OR OLD."updated_at" IS NOT NEW."updated_at")
BEGIN
    DELETE FROM "waiting_call_risks" WHERE "workflow_name" = OLD."workflow_name" AND "run_id" = OLD."run_id";
    INSERT INTO "waiting_call_risks" ("workflow_name", "run_id", "tool_call_id", "risk", "risk_rank", "thread_key", "agent_id", "created_at", "updated_at", "tool_call_count")
    SELECT NEW."workflow_name", NEW."run_id", "m"."tool_call_id", "m"."risk",
        CASE "m"."risk" WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 WHEN 'critical' THEN 4 ELSE 0 END,
        COALESCE(NEW."thread_id", ''), NEW."agent_id", NEW."created_at", NEW."updated_at", NEW."tool_call_count"
    FROM "call_rule_matches" AS "m"
    WHERE NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND NEW."tool_calls" IS NOT NULL
        AND "m"."run_id" = NEW."run_id" AND "m"."risk" IS NOT NULL
        AND EXISTS (SELECT 1 FROM json_each(NEW."tool_calls") AS "c" WHERE json_extract("c"."value", '$.toolCallId') = "m"."tool_call_id")
    ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER "workflow_snapshots_waiting_risks_delete" AFTER DELETE ON "workflow_snapshots"
WHEN OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
BEGIN
    DELETE FROM "waiting_call_risks" WHERE "workflow_name" = OLD."workflow_name" AND "run_id" = OLD."run_id";
END;

-- The calls rated and waiting now.
DELETE FROM "waiting_call_risks";
INSERT INTO "waiting_call_risks" ("workflow_name", "run_id", "tool_call_id", "risk", "risk_rank", "thread_key", "agent_id", "created_at", "updated_at", "tool_call_count")
SELECT "w"."workflow_name", "w"."run_id", "m"."tool_call_id", "m"."risk",
    CASE "m"."risk" WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 WHEN 'critical' THEN 4 ELSE 0 END,
    COALESCE("w"."thread_id", ''), "w"."agent_id", "w"."created_at", "w"."updated_at", "w"."tool_call_count"
FROM "call_rule_matches" AS "m" JOIN "workflow_snapshots" AS "w" ON "w"."run_id" = "m"."run_id"
WHERE "m"."risk" IS NOT NULL AND "w"."status" = 'suspended' AND "w"."agent_id" IS NOT NULL
    AND EXISTS (SELECT 1 FROM json_each("w"."tool_calls") AS "c" WHERE json_extract("c"."value", '$.toolCallId') = "m"."tool_call_id")
ON CONFLICT DO NOTHING;

-- waiting_thread_risks: the rows above summed per thread and risk, a run counted once per risk;
-- waiting_run_risks: each run's calls per risk.
DELETE FROM "waiting_run_risks";
INSERT INTO "waiting_run_risks" ("workflow_name", "run_id", "risk", "calls")
SELECT "workflow_name", "run_id", "risk", COUNT(*) FROM "waiting_call_risks" GROUP BY "workflow_name", "run_id", "risk";
DELETE FROM "waiting_thread_risks";
INSERT INTO "waiting_thread_risks" ("thread_key", "risk", "risk_rank", "runs", "calls", "oldest_at")
SELECT "thread_key", "risk", MAX("risk_rank"), COUNT(*), SUM("tool_call_count"), MIN("updated_at")
FROM (SELECT DISTINCT "workflow_name", "run_id", "thread_key", "risk", "risk_rank", "tool_call_count", "updated_at" FROM "waiting_call_risks")
GROUP BY "thread_key", "risk";
-- waiting_risk_totals: those rows summed per risk.
DELETE FROM "waiting_risk_totals";
INSERT INTO "waiting_risk_totals" ("risk", "threads", "calls")
SELECT "risk", COUNT(*), SUM("calls") FROM "waiting_thread_risks" GROUP BY "risk";

-- A run's first call of a risk (no waiting_run_risks row yet) adds the run to its thread's row for
-- that risk; its last (the row back at 0) takes it off, and the thread's oldest is found again when
-- it was this run's. A run's rows always carry its current times and call count (a snapshot write
-- rewrites all of them). Row triggers run as each row changes here, one writer at a time.
CREATE TRIGGER "waiting_call_risks_thread_insert" AFTER INSERT ON "waiting_call_risks"
BEGIN
    INSERT INTO "waiting_thread_risks" ("thread_key", "risk", "risk_rank", "runs", "calls", "oldest_at")
    SELECT NEW."thread_key", NEW."risk", NEW."risk_rank", 1, NEW."tool_call_count", NEW."updated_at"
    WHERE NOT EXISTS (SELECT 1 FROM "waiting_run_risks" WHERE "workflow_name" = NEW."workflow_name" AND "run_id" = NEW."run_id" AND "risk" = NEW."risk")
    ON CONFLICT ("thread_key", "risk") DO UPDATE SET "runs" = "runs" + 1, "calls" = "calls" + "excluded"."calls",
        "oldest_at" = MIN("oldest_at", "excluded"."oldest_at");
    INSERT INTO "waiting_run_risks" ("workflow_name", "run_id", "risk", "calls") VALUES (NEW."workflow_name", NEW."run_id", NEW."risk", 1)
    ON CONFLICT ("workflow_name", "run_id", "risk") DO UPDATE SET "calls" = "calls" + 1;
END;

CREATE TRIGGER "waiting_call_risks_thread_delete" AFTER DELETE ON "waiting_call_risks"
BEGIN
    UPDATE "waiting_run_risks" SET "calls" = "calls" - 1
    WHERE "workflow_name" = OLD."workflow_name" AND "run_id" = OLD."run_id" AND "risk" = OLD."risk";
    UPDATE "waiting_thread_risks" SET "runs" = "runs" - 1, "calls" = "calls" - OLD."tool_call_count"
    WHERE "thread_key" = OLD."thread_key" AND "risk" = OLD."risk"
        AND EXISTS (SELECT 1 FROM "waiting_run_risks" WHERE "workflow_name" = OLD."workflow_name" AND "run_id" = OLD."run_id" AND "risk" = OLD."risk" AND "calls" <= 0);
    DELETE FROM "waiting_thread_risks" WHERE "thread_key" = OLD."thread_key" AND "risk" = OLD."risk" AND "runs" <= 0;
    UPDATE "waiting_thread_risks" SET "oldest_at" = (
        SELECT MIN("updated_at") FROM "waiting_call_risks" WHERE "risk" = OLD."risk" AND "thread_key" = OLD."thread_key")
    WHERE "thread_key" = OLD."thread_key" AND "risk" = OLD."risk" AND "oldest_at" = OLD."updated_at"
        AND EXISTS (SELECT 1 FROM "waiting_run_risks" WHERE "workflow_name" = OLD."workflow_name" AND "run_id" = OLD."run_id" AND "risk" = OLD."risk" AND "calls" <= 0);
    DELETE FROM "waiting_run_risks" WHERE "workflow_name" = OLD."workflow_name" AND "run_id" = OLD."run_id" AND "risk" = OLD."risk" AND "calls" <= 0;
END;

-- waiting_risk_totals follows every change of waiting_thread_risks: a thread's row made or gone
-- changes its risk's threads, a change of its calls the calls (an upsert's update is an UPDATE here).
CREATE TRIGGER "waiting_thread_risks_totals_insert" AFTER INSERT ON "waiting_thread_risks"
BEGIN
    INSERT INTO "waiting_risk_totals" ("risk", "threads", "calls") VALUES (NEW."risk", 1, NEW."calls")
    ON CONFLICT ("risk") DO UPDATE SET "threads" = "threads" + 1, "calls" = "calls" + "excluded"."calls";
END;

CREATE TRIGGER "waiting_thread_risks_totals_update" AFTER UPDATE OF "calls" ON "waiting_thread_risks"
WHEN OLD."calls" <> NEW."calls"
BEGIN
    UPDATE "waiting_risk_totals" SET "calls" = "calls" + NEW."calls" - OLD."calls" WHERE "risk" = NEW."risk";
END;

CREATE TRIGGER "waiting_thread_risks_totals_delete" AFTER DELETE ON "waiting_thread_risks"
BEGIN
    UPDATE "waiting_risk_totals" SET "threads" = "threads" - 1, "calls" = "calls" - OLD."calls" WHERE "risk" = OLD."risk";
END;
