-- AlterTable
ALTER TABLE "agent_review_settings" ADD COLUMN     "allow_trust" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "rules" ADD COLUMN     "expires_at" TIMESTAMP(3),
ADD COLUMN     "trusted_by" TEXT;
