/*
  Warnings:

  - A unique constraint covering the columns `[chain_seq]` on the table `audit_events` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "args_digest" TEXT,
ADD COLUMN     "args_digest_from" TEXT,
ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "content_hash" TEXT,
ADD COLUMN     "hash" TEXT,
ADD COLUMN     "prev_hash" TEXT;

-- AlterTable
ALTER TABLE "tool_call_decisions" ADD COLUMN     "args_digest" TEXT;

-- CreateTable
CREATE TABLE "audit_chain" (
    "id" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "legacy_rows" INTEGER NOT NULL,
    "legacy_last_id" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "audit_chain_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_chain_seq_key" ON "audit_events"("chain_seq");

-- The audit log's hash chain (lib/audit/chain.ts, README "Tamper-evident audit log"). The chain starts
-- here: rows written before keep chain_seq NULL, and the head fixes how many there were and the last
-- one's id, so that deleting one of them, or adding a row outside the chain later, is still found.
INSERT INTO "audit_chain" ("id", "seq", "hash", "legacy_rows", "legacy_last_id", "started_at")
SELECT 1, 0, '0000000000000000000000000000000000000000000000000000000000000000', count(*), COALESCE(max("id"), 0), now() AT TIME ZONE 'UTC'
FROM "audit_events";

-- Every new row joins the chain in its own transaction, whoever wrote it: the head row is locked
-- until the transaction ends, so writers on several servers take turns and form one chain, and
-- chain_seq has no gaps (a rolled-back row rolls the head back too).
CREATE FUNCTION audit_events_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    head_seq INTEGER;
    head_hash TEXT;
BEGIN
    IF NEW.content_hash IS NULL THEN
        RAISE EXCEPTION 'audit_events: content_hash is required (lib/audit/chain.ts)';
    END IF;
    SELECT seq, hash INTO head_seq, head_hash FROM audit_chain WHERE id = 1 FOR UPDATE;
    NEW.chain_seq := head_seq + 1;
    NEW.prev_hash := head_hash;
    NEW.hash := encode(sha256(convert_to(NEW.chain_seq::text || E'\n' || head_hash || E'\n' || NEW.content_hash, 'UTF8')), 'hex');
    UPDATE audit_chain SET seq = NEW.chain_seq, hash = NEW.hash WHERE id = 1;
    RETURN NEW;
END $$;

CREATE TRIGGER audit_events_chain BEFORE INSERT ON audit_events
FOR EACH ROW EXECUTE FUNCTION audit_events_chain();
