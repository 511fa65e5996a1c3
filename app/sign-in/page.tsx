import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { ssoProviderName } from "@/lib/auth/auth";
import { safeReturnPath } from "@/lib/auth/page-access";
import { currentActor } from "@/lib/auth/session";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations();
  return { title: t("app.pageTitle", { page: t("signIn.title") }) };
}
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[]; error?: string | string[] }>;
}) {
  const params = await searchParams;
  const next = safeReturnPath(typeof params.next === "string" ? params.next : "/");
  // better-auth sends a failed single sign-on back here with its error code: said in words, never echoed.
  const ssoFailed = params.error !== undefined;
  if (await currentActor()) redirect(next);
  const t = await getTranslations("signIn");
  return (
    <div className="mx-auto mt-10 w-full max-w-sm">
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <p className="mt-1 text-sm text-neutral-600">{t("intro")}</p>
      <SignInForm next={next} ssoName={ssoProviderName()} initialError={ssoFailed ? t("ssoFailed") : null} />
    </div>
  );
}
