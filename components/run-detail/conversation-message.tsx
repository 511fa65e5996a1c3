/**
 * One message of a run's conversation, as text whatever it holds (agents and models write it, so
 * anyone may have): React text nodes only, long texts folded under Show more, values through the
 * JSON viewer. The call the reviewer decides is marked where the agent made it.
 */
"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import type { ConversationMessageDto, ConversationPartDto, CutValue } from "@/lib/runs/conversation-dto";
import { JsonViewer } from "@/components/json-viewer";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { useTimestamp } from "@/components/time";

/** Characters of a text shown before Show more. */
const FOLDED_TEXT = 600;

export function ConversationMessage({ message, pendingToolCallIds }: { message: ConversationMessageDto; pendingToolCallIds: string[] }) {
  const t = useTranslations("runDetail.roles");
  const timestamp = useTimestamp();
  return (
    <li
      className={cn(
        "flex flex-col gap-1.5 rounded-md border px-3 py-2",
        message.role === "user" ? "border-sky-200 bg-sky-50/60" : "border-neutral-200",
      )}
    >
      <div className="flex items-baseline gap-2 text-xs text-neutral-500">
        <span className="font-semibold text-neutral-700">{t(message.role)}</span>
        {message.createdAt ? <time dateTime={message.createdAt}>{timestamp(message.createdAt)}</time> : null}
      </div>
      {message.parts.map((part, index) => (
        <MessagePart key={index} part={part} pendingToolCallIds={pendingToolCallIds} />
      ))}
    </li>
  );
}

function MessagePart({ part, pendingToolCallIds }: { part: ConversationPartDto; pendingToolCallIds: string[] }) {
  const t = useTranslations("runDetail.message");
  if (part.type === "text") return <LongText text={part.text} length={part.length} />;
  if (part.type === "reasoning") {
    return (
      <details className="text-sm text-neutral-600">
        <summary className="cursor-pointer">{t("reasoning")}</summary>
        <LongText text={part.text} length={part.length} />
      </details>
    );
  }
  if (part.type === "data") return <ValueView label={part.label} value={part.value} />;
  const pending = pendingToolCallIds.includes(part.toolCallId);
  return (
    <div
      className={cn("flex flex-col gap-1.5", pending && "rounded-md bg-amber-50 p-2 ring-1 ring-amber-300")}
      data-pending-call={pending || undefined}
    >
      <p className="text-sm text-neutral-800">
        {t.rich("called", { tool: () => <span className="font-mono font-semibold">{part.toolName}</span> })}
        {/* A space, not only a margin: copied, read aloud or as text, the note is a word of its own. */}
        {pending ? (
          <>
            {" "}
            <span className="ml-1 text-xs font-medium text-amber-800">
              {part.delegatedTo ? t("waitsForYou") : t("waitsForYouArguments")}
            </span>
          </>
        ) : null}
        {!pending && !part.hasResult ? (
          <>
            {" "}
            <span className="ml-1 text-xs text-neutral-500">{t("noResult")}</span>
          </>
        ) : null}
      </p>
      {part.delegatedTo ? <p className="text-xs text-neutral-600">{t("handedTo", { agents: part.delegatedTo.join(t("then")) })}</p> : null}
      {/* The waiting call's arguments are shown with its decision: not twice (a delegation's are its prompt, not the tool's). */}
      {pending && !part.delegatedTo ? null : <ValueView label={t("argumentsOf", { tool: part.toolName })} value={part.args} />}
      {part.hasResult ? <ValueView label={t("resultOf", { tool: part.toolName })} value={part.result} /> : null}
    </div>
  );
}

function ValueView({ label, value }: { label: string; value: unknown }) {
  const t = useTranslations("runDetail.message");
  if (isCut(value)) {
    return (
      <div className="flex flex-col gap-1">
        <LongText text={value.preview} length={value.length} />
        <span className="text-xs text-neutral-500">{t("tooLarge", { label })}</span>
      </div>
    );
  }
  return <JsonViewer label={label} value={value ?? null} defaultExpandDepth={1} className="[&>div[role=group]]:max-h-60" />;
}

/** A text as written, folded after FOLDED_TEXT characters; `length` is the whole text's, when the server cut it. */
export function LongText({ text, length }: { text: string; length: number }) {
  const t = useTranslations("runDetail.message");
  const [open, setOpen] = useState(false);
  const folded = text.length > FOLDED_TEXT && !open;
  return (
    <div className="text-sm text-neutral-900">
      <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{folded ? `${text.slice(0, FOLDED_TEXT)}…` : text}</p>
      {text.length > FOLDED_TEXT ? (
        <Button variant="link" size="xs" className="px-0" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? t("showLess") : t("showMore")}
        </Button>
      ) : null}
      {open && length > text.length ? <p className="text-xs text-neutral-500">{t("firstOf", { shown: text.length, length })}</p> : null}
    </div>
  );
}

function isCut(value: unknown): value is CutValue {
  return typeof value === "object" && value !== null && (value as CutValue).cut === true && typeof (value as CutValue).preview === "string";
}
