import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import type { RunDto } from "@/lib/queue/dto";

type RunShape = RunDto["shape"];

/** The catalog keys (queue.shape) of each shape's label; its title is `<key>Title`. */
const LABELS: Record<Exclude<RunShape, "agent">, "durableAgent" | "workflow"> = {
  "durable-agent": "durableAgent",
  workflow: "workflow",
};

/**
 * Which kind of run waits, when it is not a plain agent's: a durable agent's run, a workflow's, or
 * a supervisor's (its call is delegated to a sub-agent).
 */
export function ShapeBadge({ shape, delegated }: { shape: RunShape; delegated?: boolean }) {
  const t = useTranslations("queue.shape");
  if (shape === "agent") {
    return delegated ? (
      <Badge variant="outline" title={t("supervisorTitle")}>
        {t("supervisor")}
      </Badge>
    ) : null;
  }
  const key = LABELS[shape];
  return (
    <Badge variant="outline" title={t(`${key}Title`)}>
      {t(key)}
    </Badge>
  );
}
