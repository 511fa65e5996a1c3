import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { ssoProviderName } from "@/lib/auth/auth";
import { safeReturnPath } from "@/lib/auth/page-access";
import { currentActor } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign in · Agent approvals" };
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
  return (
    <div className="mx-auto mt-10 w-full max-w-sm">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      <p className="mt-1 text-sm text-neutral-600">Agent approvals is for your team only. Accounts are created by an admin.</p>
      <SignInForm
        next={next}
        ssoName={ssoProviderName()}
        initialError={ssoFailed ? "Single sign-on did not complete. Try again, or ask an admin to check the provider's settings." : null}
      />
    </div>
  );
}
