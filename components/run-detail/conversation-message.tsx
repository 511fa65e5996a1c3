/**
 * One message of a run's conversation, as text whatever it holds (agents and models write it, so
 * anyone may have): React text nodes only, long texts folded under Show more, values through the
 * JSON viewer. The call the reviewer decides is marked where the agent made it.
 */
"use client";

import { useState } from "react";
import type { ConversationMessageDto, ConversationPartDto, CutValue } from "@/lib/runs/conversation-dto";
import { JsonViewer } from "@/components/json-viewer";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

/** Characters of a text shown before Show more. */
const FOLDED_TEXT = 600;

const ROLE_LABELS: Record<ConversationMessageDto["role"], string> = {
  user: "User",
  assistant: "Agent",
  tool: "Tool result",
  input: "Input",
};

export function ConversationMessage({ message, pendingToolCallIds }: { message: ConversationMessageDto; pendingToolCallIds: string[] }) {
  return (
    <li
      className={cn(
        "flex flex-col gap-1.5 rounded-md border px-3 py-2",
        message.role === "user" ? "border-sky-200 bg-sky-50/60" : "border-neutral-200",
      )}
    >
      <div className="flex items-baseline gap-2 text-xs text-neutral-500">
        <span className="font-semibold text-neutral-700">{ROLE_LABELS[message.role]}</span>
        {message.createdAt ? <time dateTime={message.createdAt}>{new Date(message.createdAt).toLocaleString()}</time> : null}
      </div>
      {message.parts.map((part, index) => (
        <MessagePart key={index} part={part} pendingToolCallIds={pendingToolCallIds} />
      ))}
    </li>
  );
}

function MessagePart({ part, pendingToolCallIds }: { part: ConversationPartDto; pendingToolCallIds: string[] }) {
  if (part.type === "text") return <LongText text={part.text} length={part.length} />;
  if (part.type === "reasoning") {
    return (
      <details className="text-sm text-neutral-600">
        <summary className="cursor-pointer">Reasoning</summary>
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
        Called <span className="font-mono font-semibold">{part.toolName}</span>
        {pending ? (
          <span className="ml-2 text-xs font-medium text-amber-800">
            {part.delegatedTo ? "this call waits for you" : "this call waits for you (its arguments are with the decision)"}
          </span>
        ) : null}
        {!pending && !part.hasResult ? <span className="ml-2 text-xs text-neutral-500">no result yet</span> : null}
      </p>
      {part.delegatedTo ? (
        <p className="text-xs text-neutral-600">Handed the request to {part.delegatedTo.join(", then ")} with these words:</p>
      ) : null}
      {/* The waiting call's arguments are shown with its decision: not twice (a delegation's are its prompt, not the tool's). */}
      {pending && !part.delegatedTo ? null : <ValueView label={`Arguments of ${part.toolName}`} value={part.args} />}
      {part.hasResult ? <ValueView label={`Result of ${part.toolName}`} value={part.result} /> : null}
    </div>
  );
}

function ValueView({ label, value }: { label: string; value: unknown }) {
  if (isCut(value)) {
    return (
      <div className="flex flex-col gap-1">
        <LongText text={value.preview} length={value.length} />
        <span className="text-xs text-neutral-500">{label}: shown as JSON text, too large to show whole.</span>
      </div>
    );
  }
  return <JsonViewer label={label} value={value ?? null} defaultExpandDepth={1} className="[&>div[role=group]]:max-h-60" />;
}

/** A text as written, folded after FOLDED_TEXT characters; `length` is the whole text's, when the server cut it. */
export function LongText({ text, length }: { text: string; length: number }) {
  const [open, setOpen] = useState(false);
  const folded = text.length > FOLDED_TEXT && !open;
  return (
    <div className="text-sm text-neutral-900">
      <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{folded ? `${text.slice(0, FOLDED_TEXT)}…` : text}</p>
      {text.length > FOLDED_TEXT ? (
        <Button variant="link" size="xs" className="px-0" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? "Show less" : "Show more"}
        </Button>
      ) : null}
      {open && length > text.length ? (
        <p className="text-xs text-neutral-500">
          The first {text.length.toLocaleString("en")} of {length.toLocaleString("en")} characters.
        </p>
      ) : null}
    </div>
  );
}

function isCut(value: unknown): value is CutValue {
  return typeof value === "object" && value !== null && (value as CutValue).cut === true && typeof (value as CutValue).preview === "string";
}
