import { listSuspendedRuns } from "@/lib/runs/list-suspended-runs";

// Pending runs change all the time: always read them fresh.
export const dynamic = "force-dynamic";

export default async function RunsPage() {
  const { runs, total } = await listSuspendedRuns({ perPage: 50, page: 0 });
  return (
    <main className="mx-auto max-w-6xl p-6">
      <h1 className="text-2xl font-semibold">Pending tool calls</h1>
      <p className="mt-1 text-sm text-slate-600">{total} suspended runs wait for a reviewer.</p>
      <table className="mt-6 w-full border-collapse text-left text-sm">
        <thead>
          <tr className="border-b border-slate-300">
            <th className="py-2 pr-4">Tool</th>
            <th className="py-2 pr-4">Kind</th>
            <th className="py-2 pr-4">Agent</th>
            <th className="py-2 pr-4">Thread</th>
            <th className="py-2 pr-4">Resource</th>
            <th className="py-2 pr-4">Suspended at</th>
          </tr>
        </thead>
        <tbody>
          {runs.flatMap((run) =>
            run.toolCalls.map((call) => (
              <tr key={`${run.runId}:${call.toolCallId}`} className="border-b border-slate-200">
                <td className="py-2 pr-4 font-mono">{call.toolName}</td>
                <td className="py-2 pr-4">{call.requiresApproval ? "Approval" : "Input requested"}</td>
                <td className="py-2 pr-4">{run.agentId}</td>
                <td className="py-2 pr-4 font-mono">{run.threadId}</td>
                <td className="py-2 pr-4 font-mono">{run.resourceId}</td>
                <td className="py-2 pr-4">{run.suspendedAt.toISOString()}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </main>
  );
}
