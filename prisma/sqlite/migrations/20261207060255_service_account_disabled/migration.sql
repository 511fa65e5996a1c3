-- AlterTable
ALTER TABLE "service_accounts" ADD COLUMN "disabled_at" DATETIME;
ALTER TABLE "service_accounts" ADD COLUMN "disabled_by" TEXT;
