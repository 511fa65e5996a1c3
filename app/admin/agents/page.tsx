import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Forbidden } from "@/components/forbidden";
import { ReviewSettingsTable } from "@/components/admin/review-settings-table";
import { pageAccess } from "@/lib/auth/page-access";
import { listAgentReviewSettings } from "@/lib/actions/settings-operations";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations();
  return { title: t("app.pageTitle", { page: t("agents.title") }) };
}
export const dynamic = "force-dynamic";

export default async function AgentsPage() {
  const access = await pageAccess("configure", "/admin/agents");
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  const agents = await listAgentReviewSettings();
  const t = await getTranslations("agents");
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 max-w-3xl text-sm text-neutral-600">{t("intro")}</p>
      </div>
      <ReviewSettingsTable agents={agents} />
    </div>
  );
}
