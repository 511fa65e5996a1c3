-- suspended_thread_days: suspended_threads split by the UTC day the runs were created, so that a date
-- filter of whole days reads its threads and totals as a range of rows instead of grouping every run
-- it matches. Filled from the runs already waiting, then kept exact by the trigger below in the
-- same transaction as every snapshot write (the same steps as suspended_threads', with the day).
CREATE TABLE suspended_thread_days (
    agent_id text NOT NULL,
    day timestamp(3) without time zone NOT NULL,
    thread_key text NOT NULL,
    runs integer NOT NULL,
    calls integer NOT NULL,
    oldest_at timestamp(3) without time zone NOT NULL
);

ALTER TABLE ONLY suspended_thread_days
    ADD CONSTRAINT suspended_thread_days_pkey PRIMARY KEY (agent_id, day, thread_key);
CREATE INDEX suspended_thread_days_agent_id_day_oldest_at_thread_key_cal_idx ON suspended_thread_days USING btree (agent_id, day, oldest_at, thread_key, calls);

INSERT INTO suspended_thread_days (agent_id, day, thread_key, runs, calls, oldest_at)
SELECT agent_key, date_trunc('day', created_at), COALESCE(thread_id, ''), COUNT(*), SUM(tool_call_count), MIN(updated_at)
FROM workflow_snapshots CROSS JOIN LATERAL (VALUES (agent_id), ('')) AS keys (agent_key)
WHERE status = 'suspended' AND agent_id IS NOT NULL
GROUP BY 1, 2, 3;

CREATE OR REPLACE FUNCTION workflow_snapshots_thread_days_reset()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    DELETE FROM "suspended_thread_days";
    RETURN NULL;
END
$function$
;
CREATE OR REPLACE FUNCTION workflow_snapshots_thread_days_suspended()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL THEN
        -- Takes the day's row locks first: the look-up below runs after, as its own statement, so it
        -- sees every run another transaction added to that day of the thread before it let go of them.
        UPDATE "suspended_thread_days" SET "runs" = "runs" - 1, "calls" = "calls" - OLD."tool_call_count"
        WHERE "agent_id" IN (OLD."agent_id", '') AND "day" = date_trunc('day', OLD."created_at") AND "thread_key" = COALESCE(OLD."thread_id", '');
        DELETE FROM "suspended_thread_days"
        WHERE "agent_id" IN (OLD."agent_id", '') AND "day" = date_trunc('day', OLD."created_at") AND "thread_key" = COALESCE(OLD."thread_id", '')
          AND "runs" <= 0;
        -- Split so that each form can use the threads' index (IS NOT DISTINCT FROM cannot).
        IF OLD."thread_id" IS NULL THEN
            UPDATE "suspended_thread_days" AS "t" SET "oldest_at" = COALESCE((
                SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
                WHERE "w"."status" = 'suspended' AND "w"."thread_id" IS NULL
                  AND "w"."created_at" >= date_trunc('day', OLD."created_at") AND "w"."created_at" < date_trunc('day', OLD."created_at") + interval '1 day'
                  AND "w"."agent_id" IS NOT NULL AND ("t"."agent_id" = '' OR "w"."agent_id" = "t"."agent_id")), "t"."oldest_at")
            WHERE "t"."agent_id" IN (OLD."agent_id", '') AND "t"."day" = date_trunc('day', OLD."created_at")
              AND "t"."thread_key" = COALESCE(OLD."thread_id", '') AND "t"."oldest_at" = OLD."updated_at";
        ELSE
            UPDATE "suspended_thread_days" AS "t" SET "oldest_at" = COALESCE((
                SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
                WHERE "w"."status" = 'suspended' AND "w"."thread_id" = OLD."thread_id"
                  AND "w"."created_at" >= date_trunc('day', OLD."created_at") AND "w"."created_at" < date_trunc('day', OLD."created_at") + interval '1 day'
                  AND "w"."agent_id" IS NOT NULL AND ("t"."agent_id" = '' OR "w"."agent_id" = "t"."agent_id")), "t"."oldest_at")
            WHERE "t"."agent_id" IN (OLD."agent_id", '') AND "t"."day" = date_trunc('day', OLD."created_at")
              AND "t"."thread_key" = COALESCE(OLD."thread_id", '') AND "t"."oldest_at" = OLD."updated_at";
        END IF;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL THEN
        INSERT INTO "suspended_thread_days" AS "t" ("agent_id", "day", "thread_key", "runs", "calls", "oldest_at")
        VALUES ('', date_trunc('day', NEW."created_at"), COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at"),
               (NEW."agent_id", date_trunc('day', NEW."created_at"), COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at")
        ON CONFLICT ("agent_id", "day", "thread_key") DO UPDATE SET
            "runs" = "t"."runs" + 1, "calls" = "t"."calls" + excluded."calls", "oldest_at" = LEAST("t"."oldest_at", excluded."oldest_at");
    END IF;
    RETURN NULL;
END
$function$
;

CREATE TRIGGER workflow_snapshots_thread_days_suspended AFTER INSERT OR DELETE OR UPDATE OF status, agent_id, thread_id, created_at, updated_at, tool_call_count ON workflow_snapshots FOR EACH ROW EXECUTE FUNCTION workflow_snapshots_thread_days_suspended();
CREATE TRIGGER workflow_snapshots_thread_days_truncate AFTER TRUNCATE ON workflow_snapshots FOR EACH STATEMENT EXECUTE FUNCTION workflow_snapshots_thread_days_reset();
