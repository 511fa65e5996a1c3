import { useTranslations } from "next-intl";
import Link from "next/link";
import { signOut } from "@/lib/actions/sign-out";
import type { Role } from "@/lib/auth/roles";
import { SubmitButton } from "@/components/ui/submit-button";

export function UserMenu({ name, email, role }: { name: string; email: string; role: Role | null }) {
  const t = useTranslations();
  return (
    <form action={signOut} className="flex flex-wrap items-center gap-3 text-sm">
      <span className="text-neutral-600">
        <span className="font-medium text-neutral-900" title={email}>
          {name}
        </span>{" "}
        · {t(`roles.${role ?? "none"}`)}
      </span>
      <Link
        href="/profile"
        className="rounded-sm font-medium text-neutral-600 underline-offset-4 hover:text-neutral-900 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950 focus-visible:ring-offset-2"
      >
        {t("nav.profile")}
      </Link>
      <SubmitButton variant="outline" size="xs">
        {t("nav.signOut")}
      </SubmitButton>
    </form>
  );
}
