/**
 * Where a delegated call waits: the supervisor that is continued, the sub-agent(s) it handed the
 * request to, and the tool that waits (Mastra's `agents` option). Shown in the queue and on the run page.
 */
import { useTranslations } from "next-intl";
import { Fragment } from "react";
import { cn } from "@/components/ui/cn";

export function DelegationPath({ path, className }: { path: string[]; className?: string }) {
  const t = useTranslations("queue.delegation");
  const agents = path.slice(0, -1);
  const tool = path.at(-1) ?? "";
  // "A, then B, then the tool X": each step joined to the next in the reader's words.
  const spoken = [...agents, t("tool", { tool })].reduce((before, after) => t("then", { before, after }));
  return (
    // One picture of the path with one text alternative: aria-label is only allowed on an element with a role.
    <span
      role="img"
      data-delegation-path={path.join(" > ")}
      aria-label={t("label", { path: spoken })}
      className={cn("inline-flex flex-wrap items-center gap-1 text-xs text-neutral-600", className)}
    >
      {path.map((step, index) => (
        <Fragment key={`${index}-${step}`}>
          {index > 0 ? (
            <span aria-hidden="true" className="text-neutral-400">
              →
            </span>
          ) : null}
          <span aria-hidden="true" className={index === path.length - 1 ? "font-mono text-neutral-800" : "text-neutral-700"}>
            {step}
          </span>
        </Fragment>
      ))}
    </span>
  );
}
