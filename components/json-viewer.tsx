"use client";

/**
 * A read-only JSON viewer for values that come from agents and models, so from anyone: everything is
 * rendered as React text nodes (never as HTML). Large values stay responsive: nodes below
 * `defaultExpandDepth` start collapsed (their children are not rendered at all), big arrays and
 * objects show their first `pageSize` entries, and long strings are cut until asked for.
 */
import { useTranslations } from "next-intl";
import { Fragment, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

const DEFAULT_EXPAND_DEPTH = 3;
const PAGE_SIZE = 100;
const STRING_LIMIT = 2_000;
const STRING_EXPANDED_LIMIT = 100_000;

interface JsonViewerProps {
  value: unknown;
  /** Accessible name of the viewer, e.g. "Arguments". */
  label: string;
  defaultExpandDepth?: number;
  className?: string;
}

export function JsonViewer({ value, label, defaultExpandDepth = DEFAULT_EXPAND_DEPTH, className }: JsonViewerProps) {
  return (
    <div className={cn("rounded-lg border border-neutral-200 bg-white", className)}>
      <div className="flex items-center justify-between gap-2 border-b border-neutral-200 px-3 py-1.5">
        <span className="text-xs font-medium text-neutral-500">{label}</span>
        <CopyJsonButton value={value} />
      </div>
      <div
        role="group"
        aria-label={label}
        className="max-h-[40rem] overflow-auto px-3 py-2 font-mono text-[12.5px] leading-relaxed text-neutral-800"
      >
        <JsonNode value={value} depth={0} defaultExpandDepth={defaultExpandDepth} />
      </div>
    </div>
  );
}

function CopyJsonButton({ value }: { value: unknown }) {
  const t = useTranslations("runDetail.json");
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <Button
      variant="ghost"
      size="xs"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(JSON.stringify(value, null, 2) ?? "undefined");
          setState("copied");
        } catch {
          setState("failed");
        }
        setTimeout(() => setState("idle"), 2_000);
      }}
    >
      {state === "copied" ? t("copied") : state === "failed" ? t("copyFailed") : t("copy")}
    </Button>
  );
}

interface NodeProps {
  value: unknown;
  depth: number;
  defaultExpandDepth: number;
  /** The key (object) or index (array) this value sits under; none for the root. */
  name?: string | number;
  /** Whether a comma follows (not the last entry). */
  trailingComma?: boolean;
}

function JsonNode({ value, depth, defaultExpandDepth, name, trailingComma }: NodeProps) {
  if (value !== null && typeof value === "object") {
    return (
      <JsonBranch value={value as object} depth={depth} defaultExpandDepth={defaultExpandDepth} name={name} trailingComma={trailingComma} />
    );
  }
  return (
    <div className="pl-4 -indent-4 [overflow-wrap:anywhere]">
      <NameLabel name={name} />
      <JsonPrimitive value={value} after={trailingComma ? <Punct>,</Punct> : null} />
    </div>
  );
}

function JsonBranch({ value, depth, defaultExpandDepth, name, trailingComma }: NodeProps & { value: object }) {
  const t = useTranslations("runDetail.json");
  const isArray = Array.isArray(value);
  const entries: Array<[string | number, unknown]> = isArray
    ? (value as unknown[]).map((item, index) => [index, item])
    : Object.entries(value);
  const [expanded, setExpanded] = useState(depth < defaultExpandDepth);
  const [visible, setVisible] = useState(PAGE_SIZE);
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  const kind = isArray ? "array" : "object";
  const summary = t("summary", { count: entries.length, kind });

  if (entries.length === 0) {
    return (
      <div>
        <NameLabel name={name} />
        <Punct>
          {open}
          {close}
        </Punct>
        {trailingComma ? <Punct>,</Punct> : null}
      </div>
    );
  }

  const shown = entries.slice(0, visible);
  const hidden = entries.length - shown.length;
  const what = name === undefined ? t(kind) : String(name);
  return (
    <div>
      <div className="flex items-start">
        <button
          type="button"
          onClick={() => setExpanded(!expanded)}
          aria-expanded={expanded}
          aria-label={expanded ? t("collapse", { what }) : t("expand", { what })}
          className="-ml-1 mr-0.5 mt-[3px] grid h-4 w-4 shrink-0 place-items-center rounded text-neutral-400 hover:bg-neutral-100 hover:text-neutral-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
        >
          <svg aria-hidden="true" viewBox="0 0 16 16" className={cn("h-3 w-3 transition-transform", expanded && "rotate-90")}>
            <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
        <div className="min-w-0">
          <NameLabel name={name} />
          <Punct>{open}</Punct>
          {!expanded ? (
            <>
              <button
                type="button"
                onClick={() => setExpanded(true)}
                className="mx-1 rounded bg-neutral-100 px-1.5 text-[11px] text-neutral-500 hover:bg-neutral-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-neutral-950"
                tabIndex={-1}
                aria-hidden="true"
              >
                {summary}
              </button>
              <Punct>{close}</Punct>
              {trailingComma ? <Punct>,</Punct> : null}
            </>
          ) : null}
        </div>
      </div>
      {expanded ? (
        <>
          <div className="ml-[5px] border-l border-neutral-200 pl-3">
            {shown.map(([key, child], index) => (
              <JsonNode
                key={key}
                name={key}
                value={child}
                depth={depth + 1}
                defaultExpandDepth={defaultExpandDepth}
                trailingComma={index < entries.length - 1}
              />
            ))}
            {hidden > 0 ? (
              <div className="py-1">
                <Button variant="outline" size="xs" onClick={() => setVisible(visible + PAGE_SIZE)}>
                  {t("showMore", { count: Math.min(hidden, PAGE_SIZE) })}
                </Button>
                <span className="ml-2 text-[11px] text-neutral-500">
                  {t("shownOf", { shown: shown.length, count: entries.length, kind })}
                </span>
              </div>
            ) : null}
          </div>
          <div>
            <Punct>{close}</Punct>
            {trailingComma ? <Punct>,</Punct> : null}
          </div>
        </>
      ) : null}
    </div>
  );
}

function NameLabel({ name }: { name?: string | number }) {
  if (name === undefined) return null;
  // An array's index is text to read (axe's contrast rule, e2e/31): darker than the punctuation.
  return typeof name === "number" ? (
    <span className="text-neutral-500">{name}: </span>
  ) : (
    <>
      <span className="text-violet-700">{JSON.stringify(name)}</span>
      <Punct>: </Punct>
    </>
  );
}

function JsonPrimitive({ value, after }: { value: unknown; after: React.ReactNode }) {
  if (typeof value === "string") return <JsonString value={value} after={after} />;
  return (
    <>
      <JsonScalar value={value} />
      {after}
    </>
  );
}

function JsonScalar({ value }: { value: unknown }) {
  if (typeof value === "number" || typeof value === "bigint") return <span className="text-sky-700">{String(value)}</span>;
  if (typeof value === "boolean") return <span className="text-amber-700">{String(value)}</span>;
  if (value === null) return <span className="text-neutral-500">null</span>;
  return <span className="text-neutral-500">{String(value)}</span>;
}

/**
 * A string as JSON writes it (JSON.stringify: quotes, backslashes and control characters escaped),
 * so a value holding `"` or `\n` reads unambiguously. Each `\n` escape also ends the line on
 * screen, so multi-line text stays readable. Long strings are cut until "Show all"; beyond
 * `STRING_EXPANDED_LIMIT` characters even "Show all" stops there first: laying out megabytes of text
 * takes the browser seconds.
 */
function JsonString({ value, after }: { value: string; after: React.ReactNode }) {
  const t = useTranslations("runDetail.json");
  const [limit, setLimit] = useState(STRING_LIMIT);
  const cut = value.length > limit;
  const quoted = JSON.stringify(cut ? value.slice(0, limit) : value);
  return (
    <>
      <span className="whitespace-pre-wrap text-emerald-800">
        {linesOf(quoted.slice(0, -1)).map((line, index) => (
          <Fragment key={index}>
            {index > 0 ? <br /> : null}
            {line}
          </Fragment>
        ))}
        {cut ? <span className="text-neutral-400">…</span> : null}
        {'"'}
      </span>
      {after}
      {cut ? (
        <>
          {" "}
          {limit === STRING_LIMIT ? (
            <Button variant="outline" size="xs" className="align-baseline indent-0" onClick={() => setLimit(STRING_EXPANDED_LIMIT)}>
              {t("showAll")}
            </Button>
          ) : (
            <Button variant="outline" size="xs" className="align-baseline indent-0" onClick={() => setLimit(Infinity)}>
              {t("showRemaining", { count: value.length - limit })}
            </Button>
          )}
          <span className="ml-2 text-[11px] text-neutral-500">
            {limit === STRING_LIMIT ? t("characters", { count: value.length }) : t("firstShown", { shown: limit, count: value.length })}
          </span>
        </>
      ) : null}
    </>
  );
}

/** JSON string text split after each `\n` escape (not after an escaped backslash followed by "n"). */
function linesOf(json: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < json.length; i++) {
    if (json[i] !== "\\") continue;
    if (json[i + 1] === "n") {
      lines.push(json.slice(start, i + 2));
      start = i + 2;
    }
    i++;
  }
  lines.push(json.slice(start));
  return lines;
}

function Punct({ children }: { children: React.ReactNode }) {
  return <span className="text-neutral-400">{children}</span>;
}
