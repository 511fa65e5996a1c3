-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN "auth_method" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "token_id" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "token_name" TEXT;

-- AlterTable
ALTER TABLE "auth_sessions" ADD COLUMN "auth_method" TEXT;

-- CreateTable
CREATE TABLE "service_accounts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "user_id" TEXT,
    "service_account_id" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "expires_at" DATETIME,
    "revoked_at" DATETIME,
    "revoked_by" TEXT,
    "last_used_at" DATETIME,
    "last_used_address" TEXT,
    CONSTRAINT "api_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "auth_users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "api_tokens_service_account_id_fkey" FOREIGN KEY ("service_account_id") REFERENCES "service_accounts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "service_accounts_name_key" ON "service_accounts"("name");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_hash_key" ON "api_tokens"("hash");

-- CreateIndex
CREATE INDEX "api_tokens_user_id_idx" ON "api_tokens"("user_id");

-- CreateIndex
CREATE INDEX "api_tokens_service_account_id_idx" ON "api_tokens"("service_account_id");
