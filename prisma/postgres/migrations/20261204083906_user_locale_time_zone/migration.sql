-- AlterTable
ALTER TABLE "auth_users" ADD COLUMN     "locale" TEXT,
ADD COLUMN     "timeZone" TEXT;
