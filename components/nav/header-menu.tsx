"use client";

/**
 * The header's links below the `lg` breakpoint (1024 px): one **Menu** button (a disclosure) that
 * shows the links and the account's own menu under the header. From `lg` up the layout shows them
 * inline and this button is hidden.
 */
import { useTranslations } from "next-intl";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

export interface HeaderLink {
  href: string;
  label: string;
}

export function HeaderMenu({ links, children }: { links: HeaderLink[]; children: ReactNode }) {
  const t = useTranslations("nav");
  const panelId = useId();
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // A link followed from the menu closes it.
  useEffect(() => setOpen(false), [pathname]);
  return (
    <div
      className="ml-auto lg:hidden"
      onKeyDown={(event) => {
        // Esc closes the menu wherever the focus is in it, and gives the focus back to its button.
        if (event.key !== "Escape" || !open) return;
        setOpen(false);
        button.current?.focus();
      }}
    >
      <Button
        ref={button}
        variant="outline"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        className="h-11 min-w-11"
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4">
          <path
            d={open ? "M4 4l8 8M12 4l-8 8" : "M2.5 4h11M2.5 8h11M2.5 12h11"}
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinecap="round"
          />
        </svg>
        {t("menu")}
      </Button>
      {/* Rendered only while open: a closed menu leaves no second copy of the links and the account menu in the page. */}
      {open ? (
        <div id={panelId} className="absolute inset-x-0 top-14 z-40 border-b border-neutral-200 bg-white px-4 pb-4 pt-2 shadow-md">
          <nav aria-label={t("main")}>
            <ul className="flex flex-col text-[15px]">
              {links.map((link) => (
                <li key={link.href}>
                  <Link
                    href={link.href}
                    aria-current={pathname === link.href ? "page" : undefined}
                    className="flex min-h-11 items-center rounded-md px-3 font-medium text-neutral-700 hover:bg-neutral-100 hover:text-neutral-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950 aria-[current=page]:bg-neutral-100 aria-[current=page]:text-neutral-900"
                    onClick={() => setOpen(false)}
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-3 border-t border-neutral-200 px-3 pt-3">{children}</div>
        </div>
      ) : null}
    </div>
  );
}
