import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { UserMenu } from "@/components/auth/user-menu";
import { HeaderMenu } from "@/components/nav/header-menu";
import { ViewerProvider } from "@/components/viewer";
import { can, type Permission } from "@/lib/auth/roles";
import { currentActor } from "@/lib/auth/session";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Agent approvals",
  description: "Decide on agent tool calls that wait for a person.",
};

/** The header's links, each shown to the roles that may use its page. */
const NAV_LINKS: Array<{ href: string; label: string; permission: Permission }> = [
  { href: "/", label: "Pending runs", permission: "read" },
  { href: "/history", label: "History", permission: "read" },
  { href: "/admin/users", label: "Users", permission: "manageUsers" },
  { href: "/admin/agents", label: "Agents", permission: "configure" },
  { href: "/admin/expiry", label: "Expiry", permission: "configure" },
  { href: "/admin/rules", label: "Rules", permission: "configure" },
  { href: "/admin/webhooks", label: "Webhooks", permission: "manageWebhooks" },
];

export default async function RootLayout({ children }: { children: ReactNode }) {
  const actor = await currentActor();
  const links = actor ? NAV_LINKS.filter((link) => can(actor.role, link.permission)).map(({ href, label }) => ({ href, label })) : [];
  return (
    <html lang="en">
      <body className="min-h-screen bg-neutral-50 text-neutral-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
        >
          Skip to content
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
              Agent approvals
            </Link>
            {actor ? (
              <nav aria-label="Main" className="hidden lg:block">
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
        <Providers>
          <ViewerProvider viewer={actor ? { id: actor.id, email: actor.email, role: actor.role } : null}>
            <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
              {children}
            </main>
          </ViewerProvider>
        </Providers>
      </body>
    </html>
  );
}
