import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Forbidden } from "@/components/forbidden";
import { CreateUserForm } from "@/components/admin/create-user-form";
import { UsersTable } from "@/components/admin/users-table";
import { pageAccess } from "@/lib/auth/page-access";
import { listAccounts } from "@/lib/auth/users";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations();
  return { title: t("app.pageTitle", { page: t("users.title") }) };
}
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const access = await pageAccess("manageUsers", "/admin/users");
  if (!access.allowed) return <Forbidden role={access.actor.role} />;
  const users = await listAccounts();
  const t = await getTranslations("users");
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="mt-1 text-sm text-neutral-600">{t("intro")}</p>
      </div>
      <UsersTable users={users.map((user) => ({ ...user, createdAt: user.createdAt.toISOString() }))} currentUserId={access.actor.id} />
      <CreateUserForm />
    </div>
  );
}
