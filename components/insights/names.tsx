import { useTranslations } from "next-intl";

/** An agent by the name this console knows it by; by its id when it knows none (an agent since removed). */
export function AgentName({ id, names }: { id: string; names: Map<string, string> }) {
  const name = names.get(id);
  return name ? <span title={id}>{name}</span> : <span className="font-mono text-xs [overflow-wrap:anywhere]">{id}</span>;
}

/** A tool's name as code; a call recorded without one says so. */
export function ToolName({ name }: { name: string }) {
  const t = useTranslations("insights");
  if (!name) return <span className="text-neutral-500">{t("noToolName")}</span>;
  return <code className="font-mono text-xs [overflow-wrap:anywhere]">{name}</code>;
}

/** A risk in the reader's words (the queue's), "unrated" included. */
export function RiskName({ risk }: { risk: string }) {
  const t = useTranslations("queue.risk");
  return <>{t.has(risk as never) ? t(risk as never) : risk}</>;
}
