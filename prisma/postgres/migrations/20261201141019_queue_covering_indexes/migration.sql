-- Moved to the snapshot store package: its tables, indexes and triggers are created by
-- packages/mastra-store/migrations (0001_init holds what this migration did), which the console
-- applies before its own (lib/db/migrate.ts). Kept as a no-op (the engine refuses an empty one), so that databases that ran it stay in order.
SELECT 1;
