import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { UserMenu } from "@/components/auth/user-menu";
import { can } from "@/lib/auth/roles";
import { currentActor } from "@/lib/auth/session";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Agent approvals",
  description: "Decide on agent tool calls that wait for a person.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const actor = await currentActor();
  return (
    <html lang="en">
      <body className="min-h-screen bg-neutral-50 text-neutral-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
        >
          Skip to content
        </a>
        <header className="border-b border-neutral-200 bg-white">
          <div className="mx-auto flex h-14 max-w-6xl items-center gap-8 px-6">
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
              <nav aria-label="Main">
                <ul className="flex items-center gap-1 text-sm">
                  <li>
                    <Link
                      href="/"
                      className="rounded-md px-3 py-1.5 font-medium text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
                    >
                      Pending runs
                    </Link>
                  </li>
                  <li>
                    <Link
                      href="/history"
                      className="rounded-md px-3 py-1.5 font-medium text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
                    >
                      History
                    </Link>
                  </li>
                  {can(actor.role, "manageUsers") ? (
                    <li>
                      <Link
                        href="/admin/users"
                        className="rounded-md px-3 py-1.5 font-medium text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
                      >
                        Users
                      </Link>
                    </li>
                  ) : null}
                  {can(actor.role, "configure") ? (
                    <li>
                      <Link
                        href="/admin/expiry"
                        className="rounded-md px-3 py-1.5 font-medium text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
                      >
                        Expiry
                      </Link>
                    </li>
                  ) : null}
                  {can(actor.role, "manageWebhooks") ? (
                    <li>
                      <Link
                        href="/admin/webhooks"
                        className="rounded-md px-3 py-1.5 font-medium text-neutral-600 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
                      >
                        Webhooks
                      </Link>
                    </li>
                  ) : null}
                </ul>
              </nav>
            ) : null}
            <div className="ml-auto">{actor ? <UserMenu name={actor.name} email={actor.email} role={actor.role} /> : null}</div>
          </div>
        </header>
        <Providers>
          <main id="main" className="mx-auto max-w-6xl px-6 py-8">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
