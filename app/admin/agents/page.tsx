import type { Metadata } from "next";
import { Forbidden } from "@/components/forbidden";
import { ReviewSettingsTable } from "@/components/admin/review-settings-table";
import { pageAccess } from "@/lib/auth/page-access";
import { listAgentReviewSettings } from "@/lib/actions/settings-operations";

export const metadata: Metadata = { title: "Agents · Agent approvals" };
export const dynamic = "force-dynamic";

export default async function AgentsPage() {
  const access = await pageAccess("configure", "/admin/agents");
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  const agents = await listAgentReviewSettings();
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Agents</h1>
        <p className="mt-1 max-w-3xl text-sm text-neutral-600">
          How each agent&rsquo;s calls are reviewed. A reviewer takes a call or a whole thread with &ldquo;Assign to me&rdquo;; an admin
          assigns to anyone. By default anyone who reviews may still decide an assigned call, and the history notes that it was not theirs.
          With &ldquo;Only the assignee decides&rdquo; on, an assigned call of that agent is decided by its assignee alone; everyone else is
          refused and told who holds it. Unassigned calls stay open to every reviewer.
        </p>
      </div>
      <ReviewSettingsTable agents={agents} />
    </div>
  );
}
