-- The snapshot store's tables (Prisma models in prisma/store.prisma) and the triggers that keep its
-- per-agent, per-hour and per-thread summaries exact in the same transaction as every snapshot write.


CREATE TABLE suspended_run_counts (
    agent_id text NOT NULL,
    runs integer NOT NULL
);

CREATE TABLE suspended_run_hours (
    hour timestamp(3) without time zone NOT NULL,
    agent_id text NOT NULL,
    runs integer NOT NULL
);

CREATE TABLE suspended_threads (
    agent_id text NOT NULL,
    thread_key text NOT NULL,
    runs integer NOT NULL,
    calls integer NOT NULL,
    oldest_at timestamp(3) without time zone NOT NULL
);

CREATE TABLE workflow_snapshots (
    workflow_name text NOT NULL,
    run_id text NOT NULL,
    resource_id text,
    agent_id text,
    thread_id text,
    status text NOT NULL,
    tool_calls text,
    snapshot text NOT NULL,
    version integer DEFAULT 0 NOT NULL,
    created_at timestamp(3) without time zone NOT NULL,
    updated_at timestamp(3) without time zone NOT NULL,
    tool_call_count integer DEFAULT 0 NOT NULL
);

ALTER TABLE ONLY suspended_run_counts
    ADD CONSTRAINT suspended_run_counts_pkey PRIMARY KEY (agent_id);

ALTER TABLE ONLY suspended_run_hours
    ADD CONSTRAINT suspended_run_hours_pkey PRIMARY KEY (hour, agent_id);

ALTER TABLE ONLY suspended_threads
    ADD CONSTRAINT suspended_threads_pkey PRIMARY KEY (agent_id, thread_key);

ALTER TABLE ONLY workflow_snapshots
    ADD CONSTRAINT workflow_snapshots_pkey PRIMARY KEY (workflow_name, run_id);
CREATE INDEX suspended_run_hours_agent_id_hour_runs_idx ON suspended_run_hours USING btree (agent_id, hour, runs);
CREATE INDEX suspended_threads_agent_id_oldest_at_thread_key_calls_idx ON suspended_threads USING btree (agent_id, oldest_at, thread_key, calls);
CREATE INDEX workflow_snapshots_agent_id_status_created_at_run_id_workfl_idx ON workflow_snapshots USING btree (agent_id, status, created_at, run_id, workflow_name);
CREATE INDEX workflow_snapshots_run_id_idx ON workflow_snapshots USING btree (run_id);
CREATE INDEX workflow_snapshots_status_created_at_run_id_agent_id_workfl_idx ON workflow_snapshots USING btree (status, created_at, run_id, agent_id, workflow_name, thread_id, updated_at, tool_call_count);
CREATE INDEX workflow_snapshots_status_resource_id_created_at_run_id_age_idx ON workflow_snapshots USING btree (status, resource_id, created_at, run_id, agent_id, workflow_name, thread_id, updated_at, tool_call_count);
CREATE INDEX workflow_snapshots_status_thread_id_created_at_run_id_agent_idx ON workflow_snapshots USING btree (status, thread_id, created_at, run_id, agent_id, workflow_name, updated_at, tool_call_count);
CREATE INDEX workflow_snapshots_status_updated_at_agent_id_thread_id_too_idx ON workflow_snapshots USING btree (status, updated_at, agent_id, thread_id, tool_call_count);
CREATE INDEX workflow_snapshots_workflow_name_resource_id_created_at_idx ON workflow_snapshots USING btree (workflow_name, resource_id, created_at);
CREATE INDEX workflow_snapshots_workflow_name_status_created_at_idx ON workflow_snapshots USING btree (workflow_name, status, created_at);

CREATE OR REPLACE FUNCTION workflow_snapshots_count_reset()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    DELETE FROM "suspended_run_counts";
    RETURN NULL;
END
$function$
;
CREATE OR REPLACE FUNCTION workflow_snapshots_count_suspended()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$
;
CREATE OR REPLACE FUNCTION workflow_snapshots_hours_reset()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    DELETE FROM "suspended_run_hours";
    RETURN NULL;
END
$function$
;
CREATE OR REPLACE FUNCTION workflow_snapshots_hours_suspended()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$
;
CREATE OR REPLACE FUNCTION workflow_snapshots_threads_reset()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    DELETE FROM "suspended_threads";
    RETURN NULL;
END
$function$
;
CREATE OR REPLACE FUNCTION workflow_snapshots_threads_suspended()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."status" = 'suspended' AND OLD."agent_id" IS NOT NULL THEN
        -- Takes the thread's row locks first: the look-up below runs after, as its own statement,
        -- so it sees every run another transaction added to the thread before it let go of them.
        UPDATE "suspended_threads" SET "runs" = "runs" - 1, "calls" = "calls" - OLD."tool_call_count"
        WHERE "agent_id" IN (OLD."agent_id", '') AND "thread_key" = COALESCE(OLD."thread_id", '');
        DELETE FROM "suspended_threads"
        WHERE "agent_id" IN (OLD."agent_id", '') AND "thread_key" = COALESCE(OLD."thread_id", '') AND "runs" <= 0;
        IF OLD."thread_id" IS NULL THEN
            UPDATE "suspended_threads" AS "t" SET "oldest_at" = COALESCE((
                SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
                WHERE "w"."status" = 'suspended' AND "w"."thread_id" IS NULL AND "w"."agent_id" IS NOT NULL
                  AND ("t"."agent_id" = '' OR "w"."agent_id" = "t"."agent_id")), "t"."oldest_at")
            WHERE "t"."agent_id" IN (OLD."agent_id", '') AND "t"."thread_key" = '' AND "t"."oldest_at" = OLD."updated_at";
        ELSE
            UPDATE "suspended_threads" AS "t" SET "oldest_at" = COALESCE((
                SELECT MIN("w"."updated_at") FROM "workflow_snapshots" AS "w"
                WHERE "w"."status" = 'suspended' AND "w"."thread_id" = OLD."thread_id" AND "w"."agent_id" IS NOT NULL
                  AND ("t"."agent_id" = '' OR "w"."agent_id" = "t"."agent_id")), "t"."oldest_at")
            WHERE "t"."agent_id" IN (OLD."agent_id", '') AND "t"."thread_key" = OLD."thread_id" AND "t"."oldest_at" = OLD."updated_at";
        END IF;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL THEN
        INSERT INTO "suspended_threads" AS "t" ("agent_id", "thread_key", "runs", "calls", "oldest_at")
        VALUES ('', COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at"),
               (NEW."agent_id", COALESCE(NEW."thread_id", ''), 1, NEW."tool_call_count", NEW."updated_at")
        ON CONFLICT ("agent_id", "thread_key") DO UPDATE SET
            "runs" = "t"."runs" + 1, "calls" = "t"."calls" + excluded."calls", "oldest_at" = LEAST("t"."oldest_at", excluded."oldest_at");
    END IF;
    RETURN NULL;
END
$function$
;

CREATE TRIGGER workflow_snapshots_count_suspended AFTER INSERT OR DELETE OR UPDATE OF status, agent_id ON workflow_snapshots FOR EACH ROW EXECUTE FUNCTION workflow_snapshots_count_suspended();
CREATE TRIGGER workflow_snapshots_count_truncate AFTER TRUNCATE ON workflow_snapshots FOR EACH STATEMENT EXECUTE FUNCTION workflow_snapshots_count_reset();
CREATE TRIGGER workflow_snapshots_hours_suspended AFTER INSERT OR DELETE OR UPDATE OF status, agent_id, created_at ON workflow_snapshots FOR EACH ROW EXECUTE FUNCTION workflow_snapshots_hours_suspended();
CREATE TRIGGER workflow_snapshots_hours_truncate AFTER TRUNCATE ON workflow_snapshots FOR EACH STATEMENT EXECUTE FUNCTION workflow_snapshots_hours_reset();
CREATE TRIGGER workflow_snapshots_threads_suspended AFTER INSERT OR DELETE OR UPDATE OF status, agent_id, thread_id, updated_at, tool_call_count ON workflow_snapshots FOR EACH ROW EXECUTE FUNCTION workflow_snapshots_threads_suspended();
CREATE TRIGGER workflow_snapshots_threads_truncate AFTER TRUNCATE ON workflow_snapshots FOR EACH STATEMENT EXECUTE FUNCTION workflow_snapshots_threads_reset();
