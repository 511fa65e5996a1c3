-- AlterTable
ALTER TABLE "auth_users" ADD COLUMN "locale" TEXT;
ALTER TABLE "auth_users" ADD COLUMN "timeZone" TEXT;
