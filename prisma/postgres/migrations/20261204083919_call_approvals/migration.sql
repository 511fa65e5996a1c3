-- CreateTable
CREATE TABLE "call_approvals" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "reviewer_id" TEXT NOT NULL,
    "reviewer_name" TEXT NOT NULL,
    "approved_at" TIMESTAMP(3) NOT NULL,
    "via" TEXT,

    CONSTRAINT "call_approvals_pkey" PRIMARY KEY ("run_id","tool_call_id","reviewer_id")
);
