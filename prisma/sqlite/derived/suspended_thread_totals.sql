-- suspended_thread_totals (the console's migration of that name): the store's suspended_threads
-- counted per agent key, kept by row triggers on suspended_threads in the transaction of the change
-- (slot 0 only: SQLite's writers take turns anyway). Installed by lib/db/derived-tables.ts on every
-- deploy when any trigger is missing (a store migration that rebuilds suspended_threads drops those
-- on it), and the table refilled from it. Triggers that change get new names (the installer looks
-- for these names). The store's triggers never change a row's agent or thread key, only its runs,
-- calls and oldest start, so only a change of calls is followed on an update.
DROP TRIGGER IF EXISTS "suspended_threads_totals_insert";
DROP TRIGGER IF EXISTS "suspended_threads_totals_update";
DROP TRIGGER IF EXISTS "suspended_threads_totals_delete";

DELETE FROM "suspended_thread_totals";
INSERT INTO "suspended_thread_totals" ("agent_id", "slot", "threads", "calls")
SELECT "agent_id", 0, COUNT(*), SUM("calls") FROM "suspended_threads" GROUP BY "agent_id";

CREATE TRIGGER "suspended_threads_totals_insert" AFTER INSERT ON "suspended_threads"
BEGIN
    INSERT INTO "suspended_thread_totals" ("agent_id", "slot", "threads", "calls") VALUES (NEW."agent_id", 0, 1, NEW."calls")
    ON CONFLICT ("agent_id", "slot") DO UPDATE SET "threads" = "threads" + 1, "calls" = "calls" + "excluded"."calls";
END;

CREATE TRIGGER "suspended_threads_totals_update" AFTER UPDATE OF "calls" ON "suspended_threads"
WHEN OLD."calls" <> NEW."calls"
BEGIN
    UPDATE "suspended_thread_totals" SET "calls" = "calls" + NEW."calls" - OLD."calls" WHERE "agent_id" = NEW."agent_id" AND "slot" = 0;
END;

CREATE TRIGGER "suspended_threads_totals_delete" AFTER DELETE ON "suspended_threads"
BEGIN
    UPDATE "suspended_thread_totals" SET "threads" = "threads" - 1, "calls" = "calls" - OLD."calls" WHERE "agent_id" = OLD."agent_id" AND "slot" = 0;
END;
