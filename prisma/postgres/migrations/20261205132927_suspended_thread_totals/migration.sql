-- CreateTable
CREATE TABLE "suspended_thread_totals" (
    "agent_id" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "threads" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,

    CONSTRAINT "suspended_thread_totals_pkey" PRIMARY KEY ("agent_id","slot")
);
