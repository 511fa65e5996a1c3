-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "locale" TEXT NOT NULL DEFAULT 'en';
