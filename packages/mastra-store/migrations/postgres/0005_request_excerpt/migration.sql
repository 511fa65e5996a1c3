-- The request excerpt (the run's last user message, one line: what the review queue shows beside a
-- call). PostgreSQL keeps a large snapshot out of line (TOAST), so a column added after it costs a
-- read nothing. The excerpts of runs already waiting are filled in by the migrator in the same
-- transaction (src/migrate.ts, backfillRequestExcerpts). SQLite's is 0006 (its 0005 has no
-- PostgreSQL counterpart).
ALTER TABLE "workflow_snapshots" ADD COLUMN "request_excerpt" TEXT;
