-- CreateTable
CREATE TABLE "suspended_thread_totals" (
    "agent_id" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "threads" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,

    PRIMARY KEY ("agent_id", "slot")
);
