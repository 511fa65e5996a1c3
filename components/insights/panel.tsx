import { useFormatter, useTranslations } from "next-intl";
import Link from "next/link";
import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";

/** One panel of /insights: a titled section, its title what assistive technology names it by. */
export function Panel({ id, title, intro, children }: { id: string; title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="min-w-0">
      <Card className="flex flex-col gap-4 p-4 sm:p-5">
        <div>
          <h2 id={`${id}-title`} className="text-lg font-semibold tracking-tight">
            {title}
          </h2>
          {intro ? <p className="mt-1 max-w-3xl text-sm text-neutral-600">{intro}</p> : null}
        </div>
        {children}
      </Card>
    </section>
  );
}

/**
 * A count, linked to the history filtered to what it counts (lib/insights/history-links.ts), or as
 * plain text where the history cannot be filtered so (null), and for none: nothing there to see,
 * and a keyboard need not tab through the zeros of 90 days.
 */
export function CountLink({ count, href }: { count: number; href: string | null }) {
  const format = useFormatter();
  const text = format.number(count);
  if (!href || count === 0) return <span className="tabular-nums">{text}</span>;
  return (
    <Link
      href={href}
      className="rounded-sm font-medium tabular-nums text-sky-800 underline underline-offset-2 hover:text-sky-950 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
    >
      {text}
    </Link>
  );
}

/** A share (0–1) as a percentage; a dash where there was nothing to share (null). */
export function Share({ value }: { value: number | null }) {
  const format = useFormatter();
  const t = useTranslations("insights");
  if (value === null) return <Missing label={t("noShare")} />;
  return <span className="tabular-nums">{format.number(value, { style: "percent", maximumFractionDigits: 1 })}</span>;
}

/** A figure there is none of: a dash to the eye, `label` to assistive technology. */
export function Missing({ label }: { label: string }) {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="sr-only">{label}</span>
    </>
  );
}
