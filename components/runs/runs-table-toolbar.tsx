"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import type { AgentDto } from "@/lib/queue/dto";
import { Button } from "@/components/ui/button";
import { PhoneFold } from "@/components/ui/phone-fold";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { EARLIEST_DAY, hasRunFilters, LATEST_DAY, type RawRunsParams } from "@/lib/list-params";
import { RISKS_HIGHEST_FIRST } from "@/lib/risk";

export type FilterPatch = Partial<
  Record<"resourceId" | "threadId" | "noThread" | "agentId" | "from" | "to" | "overdue" | "assigned" | "risk" | "sort", string | null>
>;

interface RunsTableToolbarProps {
  filters: RawRunsParams;
  agents: AgentDto[];
  /** The review target, once known: names what "overdue" means. */
  slaMinutes?: number;
  onFilterChange: (patch: FilterPatch) => void;
  onReset: () => void;
}

/** How many filters are set (the order is not a filter): the phone's **Filters (n)** button says it. */
export function countRunFilters(raw: RawRunsParams): number {
  return [raw.resourceId, raw.threadId, raw.noThread, raw.agentId, raw.from, raw.to, raw.overdue, raw.assigned, raw.risk].filter(Boolean)
    .length;
}

export function RunsTableToolbar({ filters, agents, slaMinutes, onFilterChange, onReset }: RunsTableToolbarProps) {
  const t = useTranslations("queue.toolbar");
  const risks = useTranslations("queue.risk");
  const filterCount = countRunFilters(filters);
  const agentId = useId();
  const sortId = useId();
  const overdueId = useId();
  const noThreadId = useId();
  const assignedId = useId();
  const riskId = useId();
  return (
    // Below 768 px the filters fold under one "Filters (n)" button.
    <PhoneFold label={t("filters")} countLabel={t("filtersCount", { count: filterCount })} count={filterCount}>
      <div role="search" aria-label={t("search")} className="flex flex-wrap items-end gap-3">
        <TextFilter
          label={t("resourceId")}
          placeholder={t("resourcePlaceholder")}
          keyShortcut="/"
          value={filters.resourceId}
          onCommit={(resourceId) => onFilterChange({ resourceId })}
        />
        <TextFilter
          label={t("threadId")}
          placeholder={t("threadPlaceholder")}
          value={filters.threadId}
          onCommit={(threadId) => onFilterChange({ threadId, noThread: null })}
        />
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={agentId}>{t("agent")}</Label>
          <Select
            id={agentId}
            value={filters.agentId ?? ""}
            onChange={(event) => onFilterChange({ agentId: event.target.value || null })}
            className="w-44"
          >
            <option value="">{t("allAgents")}</option>
            {(["agent", "workflow"] as const).map((kind) => (
              <optgroup key={kind} label={kind === "agent" ? t("agents") : t("workflows")}>
                {agents
                  .filter((agent) => agent.kind === kind)
                  .map((agent) => (
                    <option key={agent.id} value={agent.id}>
                      {agent.name}
                    </option>
                  ))}
              </optgroup>
            ))}
            {filters.agentId && !agents.some((agent) => agent.id === filters.agentId) ? (
              <option value={filters.agentId}>{filters.agentId}</option>
            ) : null}
          </Select>
        </div>
        <DateFilter label={t("from")} value={filters.from} max={filters.to} onChange={(from) => onFilterChange({ from })} />
        <DateFilter label={t("to")} value={filters.to} min={filters.from} onChange={(to) => onFilterChange({ to })} />
        <div className="flex h-9 items-center gap-2 rounded-md border border-neutral-200 px-3">
          <input
            id={overdueId}
            type="checkbox"
            checked={filters.overdue === "1"}
            onChange={(event) => onFilterChange({ overdue: event.target.checked ? "1" : null })}
            className="h-4 w-4 accent-neutral-900"
          />
          <Label htmlFor={overdueId} className="font-normal">
            {slaMinutes && Number.isFinite(slaMinutes) ? t("onlyOverdueOver", { minutes: slaMinutes }) : t("onlyOverdue")}
          </Label>
        </div>
        <div className="flex h-9 items-center gap-2 rounded-md border border-neutral-200 px-3">
          <input
            id={assignedId}
            type="checkbox"
            checked={filters.assigned === "me"}
            onChange={(event) => onFilterChange({ assigned: event.target.checked ? "me" : null })}
            className="h-4 w-4 accent-neutral-900"
          />
          <Label htmlFor={assignedId} className="font-normal">
            {t("assignedToMe")}
          </Label>
        </div>
        <div className="flex h-9 items-center gap-2 rounded-md border border-neutral-200 px-3">
          <input
            id={noThreadId}
            type="checkbox"
            checked={filters.noThread === "1"}
            onChange={(event) => onFilterChange({ noThread: event.target.checked ? "1" : null, threadId: null })}
            className="h-4 w-4 accent-neutral-900"
          />
          <Label htmlFor={noThreadId} className="font-normal">
            {t("noThread")}
          </Label>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={riskId}>{t("risk")}</Label>
          <Select
            id={riskId}
            value={filters.risk ?? ""}
            onChange={(event) => onFilterChange({ risk: event.target.value || null })}
            className="w-36"
          >
            <option value="">{t("allRisks")}</option>
            {RISKS_HIGHEST_FIRST.map((risk) => (
              <option key={risk} value={risk}>
                {risks(risk)}
              </option>
            ))}
            {/* Several risks come from the URL (risk=high,critical): shown as written. */}
            {filters.risk && !(RISKS_HIGHEST_FIRST as string[]).includes(filters.risk) ? (
              <option value={filters.risk}>{filters.risk}</option>
            ) : null}
          </Select>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={sortId}>{t("order")}</Label>
          <Select
            id={sortId}
            value={filters.sort === "newest" || filters.sort === "risk" ? filters.sort : "oldest"}
            onChange={(event) => onFilterChange({ sort: event.target.value === "oldest" ? null : event.target.value })}
            className="w-52"
          >
            <option value="oldest">{t("oldest")}</option>
            <option value="newest">{t("newest")}</option>
            <option value="risk">{t("riskFirst")}</option>
          </Select>
        </div>
        <Button
          variant="ghost"
          size="default"
          onClick={onReset}
          disabled={!hasRunFilters(filters)}
          className="border border-dashed border-neutral-300"
        >
          {t("reset")}
        </Button>
      </div>
    </PhoneFold>
  );
}

/** A whole day (YYYY-MM-DD), written to the URL as soon as it is picked. */
function DateFilter({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string | undefined;
  min?: string;
  max?: string;
  onChange: (value: string | null) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="date"
        value={value ?? ""}
        min={min ?? EARLIEST_DAY}
        max={max ?? LATEST_DAY}
        onChange={(event) => onChange(event.target.value || null)}
        className="w-40"
      />
    </div>
  );
}

/**
 * A text filter that edits a draft and writes it to the URL 300 ms after the last keystroke, or at
 * once on Enter. It follows the URL when that changes from elsewhere (back button, reset).
 */
function TextFilter({
  label,
  placeholder,
  keyShortcut,
  value,
  onCommit,
}: {
  label: string;
  placeholder?: string;
  keyShortcut?: string;
  value: string | undefined;
  onCommit: (value: string | null) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(value ?? "");
  const committed = useRef(value ?? "");
  const onCommitRef = useRef(onCommit);
  onCommitRef.current = onCommit;

  useEffect(() => {
    if ((value ?? "") !== committed.current) {
      committed.current = value ?? "";
      setDraft(value ?? "");
    }
  }, [value]);

  useEffect(() => {
    const next = draft.trim();
    if (next === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = next;
      onCommitRef.current(next || null);
    }, 300);
    return () => clearTimeout(timer);
  }, [draft]);

  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="text"
        enterKeyHint="search"
        aria-keyshortcuts={keyShortcut}
        value={draft}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        maxLength={256}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== "Enter") return;
          event.preventDefault();
          const next = draft.trim();
          if (next === committed.current) return;
          committed.current = next;
          onCommit(next || null);
        }}
        className="w-44 font-mono text-[13px]"
      />
    </div>
  );
}
