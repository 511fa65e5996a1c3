import { cn } from "@/components/ui/cn";
import type { Risk } from "@/lib/risk";

/** Each risk in words and colour; every pair keeps a contrast of at least 4.5:1 (axe checks, e2e/31). */
const STYLES: Record<Risk, { label: string; className: string }> = {
  critical: { label: "Critical", className: "border-red-800 bg-red-700 text-white" },
  high: { label: "High", className: "border-orange-300 bg-orange-100 text-orange-900" },
  medium: { label: "Medium", className: "border-yellow-300 bg-yellow-50 text-yellow-900" },
  low: { label: "Low", className: "border-emerald-200 bg-emerald-50 text-emerald-800" },
};

/** A call's risk (the rule that matched it when it started waiting); a call no rule rated shows "Unrated". */
export function RiskBadge({ risk, targetMinutes }: { risk?: Risk; targetMinutes: number }) {
  if (!risk) {
    return (
      <span className="text-xs text-neutral-600" title={`No rule gave this call a risk; review target ${targetMinutes} min`}>
        Unrated
      </span>
    );
  }
  const { label, className } = STYLES[risk];
  return (
    <span
      data-risk={risk}
      title={`${label} risk: review target ${targetMinutes} min`}
      className={cn("inline-flex items-center whitespace-nowrap rounded-md border px-2 py-0.5 text-xs font-medium", className)}
    >
      <span className="sr-only">Risk: </span>
      {label}
    </span>
  );
}
