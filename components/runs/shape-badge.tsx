import { Badge } from "@/components/ui/badge";
import type { RunDto } from "@/lib/queue/dto";

type RunShape = RunDto["shape"];

const LABELS: Record<Exclude<RunShape, "agent">, { label: string; title: string }> = {
  "durable-agent": { label: "Durable agent", title: "A durable agent's run (Mastra's durable agentic loop)" },
  workflow: { label: "Workflow", title: "A workflow run whose step waits for data (suspend())" },
};

/**
 * Which kind of run waits, when it is not a plain agent's: a durable agent's run, a workflow's, or
 * a supervisor's (its call is delegated to a sub-agent).
 */
export function ShapeBadge({ shape, delegated }: { shape: RunShape; delegated?: boolean }) {
  if (shape === "agent") {
    return delegated ? (
      <Badge variant="outline" title="A supervisor's run: the call waits inside a sub-agent it delegated to">
        Supervisor
      </Badge>
    ) : null;
  }
  const { label, title } = LABELS[shape];
  return (
    <Badge variant="outline" title={title}>
      {label}
    </Badge>
  );
}
