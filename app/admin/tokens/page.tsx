import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Forbidden } from "@/components/forbidden";
import { CreateTokenForm } from "@/components/tokens/create-token-form";
import { ServiceAccountForm } from "@/components/tokens/service-account-form";
import { ServiceAccountsList } from "@/components/tokens/service-accounts-list";
import { TokensTable } from "@/components/tokens/tokens-table";
import { pageAccess } from "@/lib/auth/page-access";
import { listServiceAccounts } from "@/lib/auth/service-accounts";
import { listTokens } from "@/lib/auth/tokens";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations();
  return { title: t("app.pageTitle", { page: t("tokens.title") }) };
}
export const dynamic = "force-dynamic";

export default async function TokensPage() {
  const access = await pageAccess("manageUsers", "/admin/tokens");
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  const [tokens, serviceAccounts] = await Promise.all([listTokens(), listServiceAccounts()]);
  const t = await getTranslations("tokens");
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-neutral-600">{t("intro")}</p>
      </div>
      <TokensTable tokens={tokens} scope="admin" />
      <section aria-labelledby="create-token" className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
        <h2 id="create-token" className="text-base font-semibold">
          {t("createTitle")}
        </h2>
        <CreateTokenForm role={access.actor.role} serviceAccounts={serviceAccounts} />
      </section>
      <section aria-labelledby="service-accounts" className="flex flex-col gap-4 rounded-lg border border-neutral-200 bg-white p-5">
        <h2 id="service-accounts" className="text-base font-semibold">
          {t("accountsTitle")}
        </h2>
        <p className="text-sm text-neutral-600">{t("accountsIntro")}</p>
        <ServiceAccountsList accounts={serviceAccounts} />
        <ServiceAccountForm />
      </section>
    </div>
  );
}
