-- CreateTable
CREATE TABLE "waiting_risk_totals" (
    "risk" TEXT NOT NULL PRIMARY KEY,
    "threads" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL
);
