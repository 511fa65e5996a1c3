import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import Link from "next/link";
import type { ReactNode } from "react";
import { UserMenu } from "@/components/auth/user-menu";
import { HeaderMenu } from "@/components/nav/header-menu";
import { BrowserTimeZone } from "@/components/browser-time-zone";
import { ClientMessages } from "@/components/client-messages";
import { ViewerProvider } from "@/components/viewer";
import { can, type Permission } from "@/lib/auth/roles";
import { currentActor } from "@/lib/auth/session";
import { Providers } from "./providers";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("app");
  return { title: t("name"), description: t("description") };
}

/** The header's links, each shown to the roles that may use its page. */
const NAV_LINKS = [
  { href: "/", label: "pending", permission: "read" },
  { href: "/history", label: "history", permission: "read" },
  { href: "/insights", label: "insights", permission: "read" },
  { href: "/admin/users", label: "users", permission: "manageUsers" },
  { href: "/admin/tokens", label: "tokens", permission: "manageUsers" },
  { href: "/admin/agents", label: "agents", permission: "configure" },
  { href: "/admin/expiry", label: "expiry", permission: "configure" },
  { href: "/admin/rules", label: "rules", permission: "configure" },
  { href: "/admin/webhooks", label: "webhooks", permission: "manageWebhooks" },
] as const satisfies Array<{ href: string; label: string; permission: Permission }>;

export default async function RootLayout({ children }: { children: ReactNode }) {
  const actor = await currentActor();
  const t = await getTranslations();
  const links = actor
    ? NAV_LINKS.filter((link) => can(actor.role, link.permission)).map(({ href, label }) => ({ href, label: t(`nav.${label}`) }))
    : [];
  return (
    <html lang={await getLocale()}>
      <body className="min-h-screen bg-neutral-50 text-neutral-900 antialiased">
        {/* Only the header's and app/error.tsx's messages: each route sends its own (lib/i18n/client-namespaces.ts). */}
        <ClientMessages route="layout">
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
          >
            {t("app.skipToContent")}
          </a>
          <header className="relative border-b border-neutral-200 bg-white">
            <div className="mx-auto flex h-14 max-w-6xl items-center gap-8 px-4 sm:px-6">
              <Link
                href="/"
                className="flex items-center gap-2 rounded-md text-[15px] font-semibold tracking-tight focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950 focus-visible:ring-offset-2"
              >
                <span
                  aria-hidden="true"
                  className="grid h-6 w-6 place-items-center rounded-md bg-neutral-900 text-[11px] font-bold text-white"
                >
                  ✓
                </span>
                {t("app.name")}
              </Link>
              {actor ? (
                <nav aria-label={t("nav.main")} className="hidden lg:block">
                  <ul className="flex items-center gap-1 text-sm">
                    {links.map((link) => (
                      <li key={link.href}>
                        <Link
                          href={link.href}
                          className="rounded-md px-3 py-1.5 font-medium text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
                        >
                          {link.label}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </nav>
              ) : null}
              {actor ? (
                <>
                  <div className="ml-auto hidden lg:block">
                    <UserMenu name={actor.name} email={actor.email} role={actor.role} />
                  </div>
                  {/* Below 1024 px the links and the account fold under one Menu button. */}
                  <HeaderMenu links={links}>
                    <UserMenu name={actor.name} email={actor.email} role={actor.role} />
                  </HeaderMenu>
                </>
              ) : null}
            </div>
          </header>
          <BrowserTimeZone />
          <Providers>
            <ViewerProvider viewer={actor ? { id: actor.id, email: actor.email, role: actor.role } : null}>
              <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
                {children}
              </main>
            </ViewerProvider>
          </Providers>
        </ClientMessages>
      </body>
    </html>
  );
}
