-- CreateTable
CREATE TABLE "waiting_risk_totals" (
    "risk" TEXT NOT NULL,
    "threads" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,

    CONSTRAINT "waiting_risk_totals_pkey" PRIMARY KEY ("risk")
);
