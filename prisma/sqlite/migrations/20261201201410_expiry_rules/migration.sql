-- CreateTable
CREATE TABLE "expiry_rules" (
    "agent_id" TEXT NOT NULL,
    "tool_name" TEXT NOT NULL,
    "after_minutes" INTEGER NOT NULL,
    "updated_by" TEXT NOT NULL,
    "updated_at" DATETIME NOT NULL,

    PRIMARY KEY ("agent_id", "tool_name")
);
