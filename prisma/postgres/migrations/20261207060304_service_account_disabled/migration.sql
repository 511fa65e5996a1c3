-- AlterTable
ALTER TABLE "service_accounts" ADD COLUMN     "disabled_at" TIMESTAMP(3),
ADD COLUMN     "disabled_by" TEXT;
