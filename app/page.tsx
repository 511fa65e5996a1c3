import { listAgents } from "@/lib/actions/list-agents";
import { pageAccess } from "@/lib/auth/page-access";
import { can } from "@/lib/auth/roles";
import { getRunsPage } from "@/lib/runs/queries";
import type { RunsPageDto } from "@/lib/runs/dto";
import { rawParamsFromSearchParams, runsQueryHash, sanitizeRunsQuery } from "@/components/runs/runs-query";
import { RunsTable } from "@/components/runs/runs-table";

// Pending runs change all the time: always read them fresh.
export const dynamic = "force-dynamic";

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = rawParamsFromSearchParams(await searchParams);
  const shown = Object.entries(raw).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== "");
  const { actor } = await pageAccess("read", shown.length ? `/?${new URLSearchParams(shown)}` : "/");
  // Invalid parameters are dropped here (and reported by the table), never fatal.
  const { state, parsed } = sanitizeRunsQuery(raw);

  const [page, agents] = await Promise.all([
    getRunsPage(parsed).catch((error: unknown): RunsPageDto | null => {
      // The table's own query shows the error and a Retry button.
      console.error("[runs page]", error);
      return null;
    }),
    listAgents(),
  ]);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Pending runs</h1>
        <p className="mt-1 text-sm text-neutral-500">
          Tool calls that wait for a person: approve or decline them, or send the input the tool asks for.
        </p>
        {can(actor.role, "decide") ? null : (
          <p className="mt-2 text-sm text-neutral-600">You can look up and read every pending call; deciding is for reviewers.</p>
        )}
      </div>
      <RunsTable
        initialPage={page}
        initialQueryHash={runsQueryHash(state)}
        initialDataUpdatedAt={Date.now()}
        agents={agents.ok ? agents.data : []}
      />
    </div>
  );
}
