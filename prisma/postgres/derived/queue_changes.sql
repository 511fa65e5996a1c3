-- queue_changes (the console's migration live_queue_feed): the triggers of the live queue's change
-- feed that sit on the store's tables (waiting_tool_calls, workflow_snapshots) or name one (a call's
-- agent, thread and resource are read from its run's snapshot). Installed by
-- lib/db/derived-tables.ts on every deploy after the store's and the console's migrations, when any
-- is missing, with queue_changes locked against writes, like the other scripts that follow the
-- store's tables. Nothing to refill: the feed records changes from now on, and a reader older than
-- its head is reset (lib/live). Triggers that change get new names (the installer looks for these
-- names). queue_change() (the migration) writes a row and notifies channel queue_changes.

-- A change to one call: its agent, thread and resource from its run's snapshot (null once it is gone).
CREATE OR REPLACE FUNCTION queue_change_of_call(change_kind TEXT, run TEXT, call TEXT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    agent TEXT;
    thread TEXT;
    resource TEXT;
BEGIN
    SELECT "agent_id", "thread_id", "resource_id" INTO agent, thread, resource
    FROM "workflow_snapshots" WHERE "run_id" = run AND "agent_id" IS NOT NULL LIMIT 1;
    PERFORM queue_change(change_kind, run, call, agent, thread, resource);
END
$$;

-- A call started waiting (the store's waiting_tool_calls records each new call once).
CREATE OR REPLACE FUNCTION queue_changes_waiting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM queue_change('waiting', NEW."run_id", NEW."tool_call_id", NEW."agent_id", NEW."thread_id", NEW."resource_id");
    RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS queue_changes_waiting ON waiting_tool_calls;
CREATE TRIGGER queue_changes_waiting AFTER INSERT ON waiting_tool_calls FOR EACH ROW EXECUTE FUNCTION queue_changes_waiting();

-- A waiting run left the queue, or one of its calls did: it ran on, ended, or was deleted.
CREATE OR REPLACE FUNCTION queue_changes_left() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD."status" <> 'suspended' OR OLD."agent_id" IS NULL THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW."status" = 'suspended' AND NEW."agent_id" IS NOT NULL AND NEW."tool_call_count" >= OLD."tool_call_count" THEN
        RETURN NULL;
    END IF;
    PERFORM queue_change('left', OLD."run_id", NULL, OLD."agent_id", OLD."thread_id", OLD."resource_id");
    RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS queue_changes_left ON workflow_snapshots;
CREATE TRIGGER queue_changes_left AFTER UPDATE OF status, agent_id, tool_call_count OR DELETE ON workflow_snapshots
FOR EACH ROW EXECUTE FUNCTION queue_changes_left();

-- A call was assigned, approved by one more reviewer (or the approval withdrawn), or rated by a rule.
CREATE OR REPLACE FUNCTION queue_changes_of_call() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM queue_change_of_call(TG_ARGV[0], OLD."run_id", OLD."tool_call_id");
    ELSE
        PERFORM queue_change_of_call(TG_ARGV[0], NEW."run_id", NEW."tool_call_id");
    END IF;
    RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS queue_changes_call_assignments ON call_assignments;
CREATE TRIGGER queue_changes_call_assignments AFTER INSERT OR UPDATE OR DELETE ON call_assignments
FOR EACH ROW EXECUTE FUNCTION queue_changes_of_call('assigned');
DROP TRIGGER IF EXISTS queue_changes_call_approvals ON call_approvals;
CREATE TRIGGER queue_changes_call_approvals AFTER INSERT OR DELETE ON call_approvals
FOR EACH ROW EXECUTE FUNCTION queue_changes_of_call('approved');
DROP TRIGGER IF EXISTS queue_changes_call_rule_matches ON call_rule_matches;
CREATE TRIGGER queue_changes_call_rule_matches AFTER INSERT ON call_rule_matches
FOR EACH ROW WHEN (NEW."risk" IS NOT NULL) EXECUTE FUNCTION queue_changes_of_call('rated');
-- An admin applying a rule to waiting calls rewrites a call's match (lib/rules/apply.ts): a new risk is a change too.
DROP TRIGGER IF EXISTS queue_changes_call_rule_matches_rerated ON call_rule_matches;
CREATE TRIGGER queue_changes_call_rule_matches_rerated AFTER UPDATE OF risk ON call_rule_matches
FOR EACH ROW WHEN (NEW."risk" IS DISTINCT FROM OLD."risk") EXECUTE FUNCTION queue_changes_of_call('rated');
