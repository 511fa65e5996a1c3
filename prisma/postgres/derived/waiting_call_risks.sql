-- waiting_call_risks (the console's migration of that name), kept by triggers: installed by
-- lib/db/derived-tables.ts on every deploy after the store's and the console's migrations, when
-- any is missing (a new database), and the table refilled from what waits now, in one transaction.
-- Triggers that change get new names (the installer looks for these names).

-- waiting_thread_risks' triggers are off while the table is refilled below (it is refilled in bulk).
DROP TRIGGER IF EXISTS waiting_call_risks_add_thread_risks ON waiting_call_risks;
DROP TRIGGER IF EXISTS waiting_call_risks_remove_thread_risks ON waiting_call_risks;
DROP TRIGGER IF EXISTS waiting_call_risks_add_to_thread_risks ON waiting_call_risks;
DROP TRIGGER IF EXISTS waiting_call_risks_take_from_thread_risks ON waiting_call_risks;
DROP TRIGGER IF EXISTS waiting_call_risks_thread_risks_added ON waiting_call_risks;
DROP TRIGGER IF EXISTS waiting_call_risks_thread_risks_removed ON waiting_call_risks;
DROP FUNCTION IF EXISTS waiting_call_risks_add_thread_risks();
DROP FUNCTION IF EXISTS waiting_call_risks_remove_thread_risks();
DROP FUNCTION IF EXISTS waiting_call_risks_add_to_thread_risks();
DROP FUNCTION IF EXISTS waiting_call_risks_take_from_thread_risks();
-- waiting_risk_totals' triggers too: the refill below sets its rows from the refilled threads.
DROP TRIGGER IF EXISTS waiting_thread_risks_totals_added ON waiting_thread_risks;
DROP TRIGGER IF EXISTS waiting_thread_risks_totals_changed ON waiting_thread_risks;
DROP TRIGGER IF EXISTS waiting_thread_risks_totals_removed ON waiting_thread_risks;

-- A call waits when its run is suspended with an agent and the call is in the run's tool_calls.
CREATE OR REPLACE FUNCTION waiting_call_risk_rank(risk TEXT) RETURNS INTEGER LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE risk WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 WHEN 'critical' THEN 4 ELSE 0 END
$$;

-- A match with a risk for a call that waits adds its row; a match removed or re-rated follows.
-- Statement triggers with the statement's rows: a rule's matches removed together are one delete
-- here (and one call of waiting_thread_risks' trigger), where a row trigger's delete per match ran
-- that trigger once per match (minutes for a large rule). PostgreSQL allows a transition table only
-- on a trigger of one event and without a column list, hence three, and an update that keeps a
-- match's call and risk (settling it) changes nothing here.
DROP TRIGGER IF EXISTS call_rule_matches_keep_waiting_risks ON call_rule_matches;
DROP FUNCTION IF EXISTS call_rule_matches_keep_waiting_risks();

CREATE OR REPLACE FUNCTION call_rule_matches_add_waiting_risks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "waiting_call_risks" ("workflow_name", "run_id", "tool_call_id", "risk", "risk_rank", "thread_key", "agent_id", "created_at", "updated_at", "tool_call_count")
    SELECT "w"."workflow_name", "w"."run_id", "m"."tool_call_id", "m"."risk", waiting_call_risk_rank("m"."risk"),
        COALESCE("w"."thread_id", ''), "w"."agent_id", "w"."created_at", "w"."updated_at", "w"."tool_call_count"
    FROM "added" AS "m" JOIN "workflow_snapshots" AS "w" ON "w"."run_id" = "m"."run_id"
    WHERE "m"."risk" IS NOT NULL AND "w"."status" = 'suspended' AND "w"."agent_id" IS NOT NULL
        AND EXISTS (SELECT 1 FROM json_array_elements("w"."tool_calls"::json) AS "c" WHERE "c"->>'toolCallId' = "m"."tool_call_id")
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION call_rule_matches_remove_waiting_risks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "waiting_call_risks" AS "r" USING "removed" AS "m"
    WHERE "r"."run_id" = "m"."run_id" AND "r"."tool_call_id" = "m"."tool_call_id";
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION call_rule_matches_move_waiting_risks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "waiting_call_risks" AS "r" USING "removed" AS "m"
    WHERE "r"."run_id" = "m"."run_id" AND "r"."tool_call_id" = "m"."tool_call_id"
        AND NOT EXISTS (SELECT 1 FROM "added" AS "n"
            WHERE "n"."run_id" = "m"."run_id" AND "n"."tool_call_id" = "m"."tool_call_id" AND "n"."risk" IS NOT DISTINCT FROM "m"."risk");
    INSERT INTO "waiting_call_risks" ("workflow_name", "run_id", "tool_call_id", "risk", "risk_rank", "thread_key", "agent_id", "created_at", "updated_at", "tool_call_count")
    SELECT "w"."workflow_name", "w"."run_id", "n"."tool_call_id", "n"."risk", waiting_call_risk_rank("n"."risk"),
        COALESCE("w"."thread_id", ''), "w"."agent_id", "w"."created_at", "w"."updated_at", "w"."tool_call_count"
    FROM "added" AS "n" JOIN "workflow_snapshots" AS "w" ON "w"."run_id" = "n"."run_id"
    WHERE "n"."risk" IS NOT NULL AND "w"."status" = 'suspended' AND "w"."agent_id" IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM "removed" AS "m"
            WHERE "m"."run_id" = "n"."run_id" AND "m"."tool_call_id" = "n"."tool_call_id" AND "m"."risk" IS NOT DISTINCT FROM "n"."risk")
        AND EXISTS (SELECT 1 FROM json_array_elements("w"."tool_calls"::json) AS "c" WHERE "c"->>'toolCallId' = "n"."tool_call_id")
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS call_rule_matches_add_waiting_risks ON call_rule_matches;
DROP TRIGGER IF EXISTS call_rule_matches_remove_waiting_risks ON call_rule_matches;
DROP TRIGGER IF EXISTS call_rule_matches_move_waiting_risks ON call_rule_matches;
CREATE TRIGGER call_rule_matches_add_waiting_risks AFTER INSERT ON call_rule_matches
REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION call_rule_matches_add_waiting_risks();
CREATE TRIGGER call_rule_matches_remove_waiting_risks AFTER DELETE ON call_rule_matches
REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION call_rule_matches_remove_waiting_risks();
CREATE TRIGGER call_rule_matches_move_waiting_risks AFTER UPDATE ON call_rule_matches
REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION call_rule_matches_move_waiting_risks();

-- A snapshot write that changes what the rows copy rewrites the run's rows: a call that no longer
-- waits (decided, the run moved on or ended) loses its row, the others get the run's new times.
CREATE OR REPLACE FUNCTION workflow_snapshots_keep_waiting_risks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW."status" IS NOT DISTINCT FROM OLD."status" AND NEW."agent_id" IS NOT DISTINCT FROM OLD."agent_id"
        AND NEW."thread_id" IS NOT DISTINCT FROM OLD."thread_id" AND NEW."tool_calls" IS NOT DISTINCT FROM OLD."tool_calls"
        AND NEW."tool_call_count" IS NOT DISTINCT FROM OLD."tool_call_count" AND NEW."created_at" IS NOT DISTINCT FROM OLD."created_at"
        AND NEW."updated_at" IS NOT DISTINCT FROM OLD."updated_at" THEN
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' AND OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL
        AND EXISTS (SELECT 1 FROM "waiting_call_risks" WHERE "workflow_name" = OLD."workflow_name" AND "run_id" = OLD."run_id") THEN
        DELETE FROM "waiting_call_risks" WHERE "workflow_name" = OLD."workflow_name" AND "run_id" = OLD."run_id";
    END IF;
    -- Most runs have no rated call: one probe of the matches' key, and no insert (whose statement
    -- triggers would run on no rows) on every snapshot write.
    IF TG_OP <> 'DELETE' AND NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND NEW."tool_calls" IS NOT NULL
        AND EXISTS (SELECT 1 FROM "call_rule_matches" AS "m" WHERE "m"."run_id" = NEW."run_id" AND "m"."risk" IS NOT NULL) THEN
        INSERT INTO "waiting_call_risks" ("workflow_name", "run_id", "tool_call_id", "risk", "risk_rank", "thread_key", "agent_id", "created_at", "updated_at", "tool_call_count")
        SELECT NEW."workflow_name", NEW."run_id", "m"."tool_call_id", "m"."risk", waiting_call_risk_rank("m"."risk"),
            COALESCE(NEW."thread_id", ''), NEW."agent_id", NEW."created_at", NEW."updated_at", NEW."tool_call_count"
        FROM "call_rule_matches" AS "m"
        WHERE "m"."run_id" = NEW."run_id" AND "m"."risk" IS NOT NULL
            AND EXISTS (SELECT 1 FROM json_array_elements(NEW."tool_calls"::json) AS "c" WHERE "c"->>'toolCallId' = "m"."tool_call_id")
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS workflow_snapshots_keep_waiting_risks ON workflow_snapshots;
CREATE TRIGGER workflow_snapshots_keep_waiting_risks
AFTER INSERT OR UPDATE OF status, agent_id, thread_id, tool_calls, tool_call_count, created_at, updated_at OR DELETE ON workflow_snapshots
FOR EACH ROW EXECUTE FUNCTION workflow_snapshots_keep_waiting_risks();

-- The calls rated and waiting now.
DELETE FROM "waiting_call_risks";
INSERT INTO "waiting_call_risks" ("workflow_name", "run_id", "tool_call_id", "risk", "risk_rank", "thread_key", "agent_id", "created_at", "updated_at", "tool_call_count")
SELECT "w"."workflow_name", "w"."run_id", "m"."tool_call_id", "m"."risk", waiting_call_risk_rank("m"."risk"),
    COALESCE("w"."thread_id", ''), "w"."agent_id", "w"."created_at", "w"."updated_at", "w"."tool_call_count"
FROM "call_rule_matches" AS "m" JOIN "workflow_snapshots" AS "w" ON "w"."run_id" = "m"."run_id"
WHERE "m"."risk" IS NOT NULL AND "w"."status" = 'suspended' AND "w"."agent_id" IS NOT NULL
    AND EXISTS (SELECT 1 FROM json_array_elements("w"."tool_calls"::json) AS "c" WHERE "c"->>'toolCallId' = "m"."tool_call_id")
ON CONFLICT DO NOTHING;

-- waiting_thread_risks: the rows above summed per thread and risk, a run counted once per risk;
-- waiting_run_risks: each run's calls per risk.
DELETE FROM "waiting_run_risks";
INSERT INTO "waiting_run_risks" ("workflow_name", "run_id", "risk", "calls")
SELECT "workflow_name", "run_id", "risk", COUNT(*) FROM "waiting_call_risks" GROUP BY "workflow_name", "run_id", "risk";
DELETE FROM "waiting_thread_risks";
INSERT INTO "waiting_thread_risks" ("thread_key", "risk", "risk_rank", "runs", "calls", "oldest_at")
SELECT "thread_key", "risk", MAX("risk_rank"), COUNT(*), SUM("tool_call_count"), MIN("updated_at")
FROM (SELECT DISTINCT "workflow_name", "run_id", "thread_key", "risk", "risk_rank", "tool_call_count", "updated_at" FROM "waiting_call_risks") AS "runs"
GROUP BY "thread_key", "risk";
-- waiting_risk_totals: those rows summed per risk.
DELETE FROM "waiting_risk_totals";
INSERT INTO "waiting_risk_totals" ("risk", "threads", "calls")
SELECT "risk", COUNT(*), SUM("calls") FROM "waiting_thread_risks" GROUP BY "risk";

-- A run's first call of a risk (its waiting_run_risks row made) adds the run to its thread's row for
-- that risk; its last (the row back to 0) takes it off, and the thread's oldest is found again when
-- it was this run's. A run's rows always carry its current times and call count (a snapshot write
-- rewrites all of them). Statement triggers with the statement's rows, a run at a time: a row
-- trigger fires after the whole statement, when each of a run's calls written together sees the
-- others. Set-based, a few statements per trigger whatever the number of rows (a rule's 500k
-- matches removed at once took minutes a run at a time). Two transactions changing calls of one
-- run take turns on its waiting_run_risks row, and both tables' rows are locked in key order first,
-- so two transactions touching the same runs or threads wait for each other instead of deadlocking.
CREATE OR REPLACE FUNCTION waiting_call_risks_thread_risks_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- A statement that inserted nothing (a snapshot write of a run without rated calls) costs one look.
    IF NOT EXISTS (SELECT 1 FROM "added") THEN
        RETURN NULL;
    END IF;
    PERFORM 1 FROM "waiting_run_risks" AS "r"
    WHERE ("r"."workflow_name", "r"."run_id", "r"."risk") IN (SELECT "workflow_name", "run_id", "risk" FROM "added")
    ORDER BY "r"."workflow_name", "r"."run_id", "r"."risk" FOR UPDATE;
    WITH "runs" AS (
        SELECT "workflow_name", "run_id", "risk", MAX("risk_rank") AS "risk_rank", MAX("thread_key") AS "thread_key",
            MAX("tool_call_count") AS "tool_call_count", MIN("updated_at") AS "updated_at", COUNT(*) AS "calls"
        FROM "added" GROUP BY "workflow_name", "run_id", "risk"
    ), "counted" AS (
        INSERT INTO "waiting_run_risks" AS "r" ("workflow_name", "run_id", "risk", "calls")
        SELECT "workflow_name", "run_id", "risk", "calls" FROM "runs" ORDER BY "workflow_name", "run_id", "risk"
        ON CONFLICT ("workflow_name", "run_id", "risk") DO UPDATE SET "calls" = "r"."calls" + EXCLUDED."calls"
        RETURNING "r"."workflow_name", "r"."run_id", "r"."risk", "r"."xmax" = 0 AS "first"
    )
    INSERT INTO "waiting_thread_risks" AS "t" ("thread_key", "risk", "risk_rank", "runs", "calls", "oldest_at")
    SELECT "g"."thread_key", "g"."risk", MAX("g"."risk_rank"), COUNT(*), SUM("g"."tool_call_count"), MIN("g"."updated_at")
    FROM "runs" AS "g" JOIN "counted" AS "c" USING ("workflow_name", "run_id", "risk")
    WHERE "c"."first"
    GROUP BY "g"."thread_key", "g"."risk"
    ORDER BY "g"."thread_key", "g"."risk"
    ON CONFLICT ("thread_key", "risk") DO UPDATE SET "runs" = "t"."runs" + EXCLUDED."runs", "calls" = "t"."calls" + EXCLUDED."calls",
        "oldest_at" = LEAST("t"."oldest_at", EXCLUDED."oldest_at");
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION waiting_call_risks_thread_risks_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM "removed") THEN
        RETURN NULL;
    END IF;
    PERFORM 1 FROM "waiting_run_risks" AS "r"
    WHERE ("r"."workflow_name", "r"."run_id", "r"."risk") IN (SELECT "workflow_name", "run_id", "risk" FROM "removed")
    ORDER BY "r"."workflow_name", "r"."run_id", "r"."risk" FOR UPDATE;
    PERFORM 1 FROM "waiting_thread_risks" AS "t"
    WHERE ("t"."thread_key", "t"."risk") IN (SELECT "thread_key", "risk" FROM "removed")
    ORDER BY "t"."thread_key", "t"."risk" FOR UPDATE;
    -- Each run's count goes down; a run left with none leaves its thread's row.
    WITH "runs" AS (
        SELECT "workflow_name", "run_id", "risk", MAX("thread_key") AS "thread_key", MAX("tool_call_count") AS "tool_call_count",
            COUNT(*) AS "calls"
        FROM "removed" GROUP BY "workflow_name", "run_id", "risk"
    ), "gone" AS (
        DELETE FROM "waiting_run_risks" AS "r" USING "runs" AS "g"
        WHERE "r"."workflow_name" = "g"."workflow_name" AND "r"."run_id" = "g"."run_id" AND "r"."risk" = "g"."risk" AND "r"."calls" <= "g"."calls"
        RETURNING "g"."thread_key", "g"."risk", "g"."tool_call_count"
    ), "kept" AS (
        UPDATE "waiting_run_risks" AS "r" SET "calls" = "r"."calls" - "g"."calls" FROM "runs" AS "g"
        WHERE "r"."workflow_name" = "g"."workflow_name" AND "r"."run_id" = "g"."run_id" AND "r"."risk" = "g"."risk" AND "r"."calls" > "g"."calls"
    ), "threads" AS (
        SELECT "thread_key", "risk", COUNT(*) AS "runs", SUM("tool_call_count") AS "calls" FROM "gone" GROUP BY "thread_key", "risk"
    ), "emptied" AS (
        -- Driven by the threads that lost runs, never by a filter on "runs": the planner's estimate
        -- of rows at 0 (none, from the statistics) made a nested loop of 80 s at 250k rows.
        DELETE FROM "waiting_thread_risks" AS "t" USING "threads" AS "d"
        WHERE "t"."thread_key" = "d"."thread_key" AND "t"."risk" = "d"."risk" AND "t"."runs" <= "d"."runs"
    )
    UPDATE "waiting_thread_risks" AS "t" SET "runs" = "t"."runs" - "d"."runs", "calls" = "t"."calls" - "d"."calls"
    FROM "threads" AS "d"
    WHERE "t"."thread_key" = "d"."thread_key" AND "t"."risk" = "d"."risk" AND "t"."runs" > "d"."runs";
    -- A thread whose oldest run of the risk left finds its oldest again, among the rows the whole statement left.
    UPDATE "waiting_thread_risks" AS "t" SET "oldest_at" = COALESCE((
        SELECT MIN("w"."updated_at") FROM "waiting_call_risks" AS "w" WHERE "w"."risk" = "t"."risk" AND "w"."thread_key" = "t"."thread_key"), "t"."oldest_at")
    FROM (SELECT DISTINCT "m"."thread_key", "m"."risk", "m"."updated_at" FROM "removed" AS "m"
        WHERE NOT EXISTS (SELECT 1 FROM "waiting_run_risks" AS "r"
            WHERE "r"."workflow_name" = "m"."workflow_name" AND "r"."run_id" = "m"."run_id" AND "r"."risk" = "m"."risk")) AS "g"
    WHERE "t"."thread_key" = "g"."thread_key" AND "t"."risk" = "g"."risk" AND "t"."oldest_at" = "g"."updated_at";
    RETURN NULL;
END
$$;

CREATE TRIGGER waiting_call_risks_thread_risks_added AFTER INSERT ON waiting_call_risks
REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION waiting_call_risks_thread_risks_added();
CREATE TRIGGER waiting_call_risks_thread_risks_removed AFTER DELETE ON waiting_call_risks
REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION waiting_call_risks_thread_risks_removed();

-- waiting_risk_totals follows every change of waiting_thread_risks: a thread's row made or gone
-- changes its risk's threads, a change of its calls the calls. Statement triggers, each adding the
-- statement's differences per risk in one upsert, rows locked in risk order; a statement that
-- changes no count (a thread's oldest found again) touches no total. Four rows every rated write
-- passes through: like the store's suspended_run_counts, a write waits for another's commit only
-- when both change the same risk.
CREATE OR REPLACE FUNCTION waiting_thread_risks_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "waiting_risk_totals" AS "t" ("risk", "threads", "calls")
    SELECT "risk", COUNT(*), SUM("calls") FROM "added" GROUP BY "risk" ORDER BY "risk"
    ON CONFLICT ("risk") DO UPDATE SET "threads" = "t"."threads" + EXCLUDED."threads", "calls" = "t"."calls" + EXCLUDED."calls";
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION waiting_thread_risks_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "waiting_risk_totals" AS "t" ("risk", "threads", "calls")
    SELECT "risk", SUM("threads"), SUM("calls")
    FROM (SELECT "risk", 1 AS "threads", "calls" FROM "added" UNION ALL SELECT "risk", -1, -"calls" FROM "removed") AS "changes"
    GROUP BY "risk" HAVING SUM("threads") <> 0 OR SUM("calls") <> 0 ORDER BY "risk"
    ON CONFLICT ("risk") DO UPDATE SET "threads" = "t"."threads" + EXCLUDED."threads", "calls" = "t"."calls" + EXCLUDED."calls";
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION waiting_thread_risks_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "waiting_risk_totals" AS "t" ("risk", "threads", "calls")
    SELECT "risk", -COUNT(*), -SUM("calls") FROM "removed" GROUP BY "risk" ORDER BY "risk"
    ON CONFLICT ("risk") DO UPDATE SET "threads" = "t"."threads" + EXCLUDED."threads", "calls" = "t"."calls" + EXCLUDED."calls";
    RETURN NULL;
END
$$;

CREATE TRIGGER waiting_thread_risks_totals_added AFTER INSERT ON waiting_thread_risks
REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION waiting_thread_risks_totals_added();
CREATE TRIGGER waiting_thread_risks_totals_changed AFTER UPDATE ON waiting_thread_risks
REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION waiting_thread_risks_totals_changed();
CREATE TRIGGER waiting_thread_risks_totals_removed AFTER DELETE ON waiting_thread_risks
REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION waiting_thread_risks_totals_removed();
