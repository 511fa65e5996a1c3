-- CreateTable
CREATE TABLE "waiting_thread_risks" (
    "thread_key" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "risk_rank" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,
    "oldest_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "waiting_thread_risks_pkey" PRIMARY KEY ("thread_key","risk")
);

-- CreateTable
CREATE TABLE "waiting_run_risks" (
    "workflow_name" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,

    CONSTRAINT "waiting_run_risks_pkey" PRIMARY KEY ("workflow_name","run_id","risk")
);

-- CreateIndex
CREATE INDEX "waiting_thread_risks_risk_oldest_at_thread_key_calls_idx" ON "waiting_thread_risks"("risk", "oldest_at", "thread_key", "calls");

-- CreateIndex
CREATE INDEX "waiting_thread_risks_thread_key_risk_rank_idx" ON "waiting_thread_risks"("thread_key", "risk_rank");
