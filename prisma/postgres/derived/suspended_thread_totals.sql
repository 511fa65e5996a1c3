-- suspended_thread_totals (the console's migration of that name): the store's suspended_threads
-- counted per agent key, in 16 slots per key by a hash of the thread's key, kept by row triggers on
-- suspended_threads in the transaction of the change. Installed by lib/db/derived-tables.ts on
-- every deploy when any trigger is missing, with suspended_threads locked against writes, and the
-- table refilled from it. Triggers that change get new names (the installer looks for these names).
-- The store's triggers never change a row's agent or thread key, only its runs, calls and oldest
-- start, so only a change of calls is followed on an update; the store's rewrite of a waiting run
-- (its calls taken off its thread's rows and put back) changes its slot twice, by opposite amounts.
-- A write locks its thread's rows, then its slots' rows ('' before the agent's, as the thread's):
-- the store writes a run per transaction, so two writes wait for each other at most, never in a
-- circle. (A transaction that wrote runs of several threads could meet another in two slots in the
-- other order; PostgreSQL would end one of them with a deadlock error.)
DROP TRIGGER IF EXISTS suspended_threads_totals_added ON suspended_threads;
DROP TRIGGER IF EXISTS suspended_threads_totals_changed ON suspended_threads;
DROP TRIGGER IF EXISTS suspended_threads_totals_removed ON suspended_threads;

CREATE OR REPLACE FUNCTION suspended_thread_total_slot(thread_key TEXT) RETURNS INTEGER LANGUAGE sql IMMUTABLE AS $$
    SELECT hashtext(thread_key) & 15
$$;

CREATE OR REPLACE FUNCTION suspended_threads_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "suspended_thread_totals" AS "t" ("agent_id", "slot", "threads", "calls")
    VALUES (NEW."agent_id", suspended_thread_total_slot(NEW."thread_key"), 1, NEW."calls")
    ON CONFLICT ("agent_id", "slot") DO UPDATE SET "threads" = "t"."threads" + 1, "calls" = "t"."calls" + EXCLUDED."calls";
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION suspended_threads_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "suspended_thread_totals" SET "calls" = "calls" + NEW."calls" - OLD."calls"
    WHERE "agent_id" = NEW."agent_id" AND "slot" = suspended_thread_total_slot(NEW."thread_key");
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION suspended_threads_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "suspended_thread_totals" SET "threads" = "threads" - 1, "calls" = "calls" - OLD."calls"
    WHERE "agent_id" = OLD."agent_id" AND "slot" = suspended_thread_total_slot(OLD."thread_key");
    RETURN NULL;
END
$$;

DELETE FROM "suspended_thread_totals";
INSERT INTO "suspended_thread_totals" ("agent_id", "slot", "threads", "calls")
SELECT "agent_id", suspended_thread_total_slot("thread_key"), COUNT(*), SUM("calls") FROM "suspended_threads" GROUP BY 1, 2;

CREATE TRIGGER suspended_threads_totals_added AFTER INSERT ON suspended_threads
FOR EACH ROW EXECUTE FUNCTION suspended_threads_totals_added();
CREATE TRIGGER suspended_threads_totals_changed AFTER UPDATE OF "calls" ON suspended_threads
FOR EACH ROW WHEN (OLD."calls" IS DISTINCT FROM NEW."calls") EXECUTE FUNCTION suspended_threads_totals_changed();
CREATE TRIGGER suspended_threads_totals_removed AFTER DELETE ON suspended_threads
FOR EACH ROW EXECUTE FUNCTION suspended_threads_totals_removed();
