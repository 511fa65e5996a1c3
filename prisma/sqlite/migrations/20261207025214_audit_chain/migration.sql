/*
  Warnings:

  - A unique constraint covering the columns `[chain_seq]` on the table `audit_events` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN "args_digest" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "args_digest_from" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "chain_seq" INTEGER;
ALTER TABLE "audit_events" ADD COLUMN "content_hash" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "hash" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" TEXT;

-- AlterTable
ALTER TABLE "tool_call_decisions" ADD COLUMN "args_digest" TEXT;

-- CreateTable
CREATE TABLE "audit_chain" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "legacy_rows" INTEGER NOT NULL,
    "legacy_last_id" INTEGER NOT NULL,
    "started_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_chain_seq_key" ON "audit_events"("chain_seq");

-- The audit log's hash chain (lib/audit/chain.ts, README "Tamper-evident audit log"). The chain starts
-- here: rows written before keep chain_seq NULL, and the head fixes how many there were and the last
-- one's id, so that deleting one of them, or adding a row outside the chain later, is still found.
INSERT INTO "audit_chain" ("id", "seq", "hash", "legacy_rows", "legacy_last_id", "started_at")
SELECT 1, 0, '0000000000000000000000000000000000000000000000000000000000000000', count(*), COALESCE(max("id"), 0),
    strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
FROM "audit_events";

-- Every new row joins the chain in its own transaction, whoever wrote it. SQLite has one writer at a
-- time, so reading the head and moving it cannot interleave. sha256_hex is registered on each
-- connection by @agent-approvals/mastra-store (SQLite has no hash function of its own).
CREATE TRIGGER "audit_events_chain" AFTER INSERT ON "audit_events"
BEGIN
    SELECT RAISE(ABORT, 'audit_events: content_hash is required (lib/audit/chain.ts)') WHERE NEW."content_hash" IS NULL;
    UPDATE "audit_events" SET "chain_seq" = "c"."seq" + 1, "prev_hash" = "c"."hash",
        "hash" = sha256_hex(("c"."seq" + 1) || char(10) || "c"."hash" || char(10) || NEW."content_hash")
    FROM "audit_chain" AS "c" WHERE "c"."id" = 1 AND "audit_events"."id" = NEW."id";
    UPDATE "audit_chain" SET "seq" = "seq" + 1, "hash" = (SELECT "hash" FROM "audit_events" WHERE "id" = NEW."id") WHERE "id" = 1;
END;
