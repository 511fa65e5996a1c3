import { listConsoleAgents } from "@/lib/queue/agents";
import { pageAccess } from "@/lib/auth/page-access";
import { can } from "@/lib/auth/roles";
import { rawRunsParams, runsParamsHash } from "@/lib/list-params";
import { getDb } from "@/lib/db/client";
import { queueVersion } from "@/lib/live/etag";
import { feedHead } from "@/lib/live/feed";
import { getRunsView } from "@/lib/queue/views";
import { sanitizeQueueQuery } from "@/lib/search-params";
import type { RunsViewDto } from "@/lib/queue/dto";
import { getTranslations } from "next-intl/server";
import { RunsTable } from "@/components/runs/runs-table";

// Pending runs change all the time: always read them fresh.
export const dynamic = "force-dynamic";

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = rawRunsParams(await searchParams);
  const shown = Object.entries(raw);
  const { actor } = await pageAccess("read", shown.length ? `/?${new URLSearchParams(shown)}` : "/");

  // Read before the view: the page's live stream resumes from here, so a change that lands while the
  // page renders and loads is replayed to it rather than missed (components/runs/use-live-queue.ts).
  // The view's version too: the table's next read of it (a tab back in focus) is then a cheap "unchanged".
  const db = await getDb();
  const applied = sanitizeQueueQuery(raw);
  const [livePosition, version] = await Promise.all([
    feedHead(db).catch(() => null),
    queueVersion(db, actor.id, raw, { scope: applied.query }).catch(() => null),
  ]);
  const [view, agents] = await Promise.all([
    // Invalid parameters are ignored (and reported by the table), never fatal.
    getRunsView(applied, actor.id).catch((error: unknown): RunsViewDto | null => {
      // The table's own query shows the error and a Retry button.
      console.error("[runs page]", error);
      return null;
    }),
    listConsoleAgents(),
  ]);
  const t = await getTranslations("queue");

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-neutral-500">{t("intro")}</p>
        {can(actor.role, "decide") ? null : <p className="mt-2 text-sm text-neutral-600">{t("readOnly")}</p>}
      </div>
      <RunsTable
        canDecide={can(actor.role, "decide")}
        initialView={view}
        initialVersion={version}
        initialParamsHash={runsParamsHash(raw)}
        initialDataUpdatedAt={Date.now()}
        livePosition={livePosition}
        agents={agents}
      />
    </div>
  );
}
