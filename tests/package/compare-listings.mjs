// In the adopting project, beside the README's files: what Mastra's own agent.listSuspendedRuns()
// reports on the README's config, and what the package itself holds for the same runs (its
// listWorkflowRuns and its reader of the snapshots), printed as JSON for packed-tarball.test.ts
// to compare. Opens a second PrismaWorkflowsStorage on the same database, as a second process would.
import { PrismaWorkflowsStorage, readSnapshot } from "@agent-approvals/mastra-store";
import { mastra } from "./mastra.mjs";

const byCall = (a, b) => a.toolCallId.localeCompare(b.toolCallId);

const listed = await mastra.getAgent("support").listSuspendedRuns();
const mastraCalls = listed.runs.flatMap((run) =>
  (run.toolCalls ?? []).map((call) => ({
    runId: run.runId,
    resourceId: run.resourceId,
    threadId: run.threadId,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
  })),
);

const store = new PrismaWorkflowsStorage({ databaseUrl: process.env.APPROVALS_DATABASE_URL });
await store.init();
const { runs } = await store.listWorkflowRuns({ workflowName: "agentic-loop", status: "suspended" });
const packageCalls = runs.flatMap((run) => {
  const summary = readSnapshot(run.workflowName, typeof run.snapshot === "string" ? JSON.parse(run.snapshot) : run.snapshot);
  return (summary.toolCalls ?? []).map((call) => ({
    runId: run.runId,
    resourceId: summary.resourceId ?? run.resourceId,
    threadId: summary.threadId,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
  }));
});

console.log(JSON.stringify({ total: listed.total, mastra: mastraCalls.sort(byCall), package: packageCalls.sort(byCall) }));
process.exit(0);
