-- CreateTable
CREATE TABLE "call_approvals" (
    "run_id" TEXT NOT NULL,
    "tool_call_id" TEXT NOT NULL,
    "reviewer_id" TEXT NOT NULL,
    "reviewer_name" TEXT NOT NULL,
    "approved_at" DATETIME NOT NULL,
    "via" TEXT,

    PRIMARY KEY ("run_id", "tool_call_id", "reviewer_id")
);
