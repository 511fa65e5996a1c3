"use client";

import { useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { declineAndSuggest } from "@/lib/actions/decline-and-suggest";
import type { ClientActionError } from "@/lib/actions/result";
import type { DecisionOutcome } from "@/lib/decisions/types";
import { jsonSyntaxWords } from "@/lib/decisions/json-syntax";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { DecisionErrorAlert } from "./decision-error-alert";
import { isAlreadyDecided, useDecide } from "./use-decide";
import { useIssueWords } from "./issue-text";

interface SuggestFormProps {
  runId: string;
  toolCallId: string;
  toolName: string;
  /** The call's arguments: the editor starts from them. */
  args: unknown;
  /** The approval form's reason, sent as a note before the suggestion. */
  note: string;
  onDecided: (outcome: DecisionOutcome) => void;
  onDecidedElsewhere?: (error: ClientActionError) => void;
  onCancel: () => void;
  /** The approval form shows it is busy while this sends. */
  onPendingChange: (pending: boolean) => void;
}

/**
 * Decline and suggest: the call's arguments in a JSON editor; the server checks them against the
 * tool's input schema, declines the call telling the model to call again with exactly these, and
 * approves that next call by itself (lib/suggestions).
 */
export function SuggestForm({
  runId,
  toolCallId,
  toolName,
  args,
  note,
  onDecided,
  onDecidedElsewhere,
  onCancel,
  onPendingChange,
}: SuggestFormProps) {
  const t = useTranslations();
  const fieldId = useId();
  const hintId = useId();
  const send = useDecide();
  const editorRef = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(() => JSON.stringify(args ?? {}, null, 2));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ClientActionError | null>(null);
  const issueWords = useIssueWords();
  const syntaxWords = jsonSyntaxWords(text, "subjectArguments");
  const syntax = syntaxWords && issueWords(syntaxWords);

  async function submit() {
    if (pending) return;
    if (syntax) {
      editorRef.current?.focus();
      return;
    }
    setPending(true);
    onPendingChange(true);
    setError(null);
    const result = await send(() => declineAndSuggest({ runId, toolCallId, args: text, reason: note.trim() || undefined }));
    setPending(false);
    onPendingChange(false);
    if (result.ok) onDecided(result.data);
    else {
      if (isAlreadyDecided(result.error)) onDecidedElsewhere?.(result.error);
      setError(result.error);
    }
  }

  return (
    <div className="flex flex-col gap-3 rounded-lg border border-neutral-200 bg-neutral-50 p-3" data-testid="suggest-form">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fieldId}>{t("decision.suggestLabel")}</Label>
        <Textarea
          ref={editorRef}
          id={fieldId}
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={Math.min(14, Math.max(4, text.split("\n").length + 1))}
          spellCheck={false}
          className="font-mono text-xs"
          disabled={pending}
          aria-invalid={syntax ? true : undefined}
          aria-describedby={hintId}
        />
        <p id={hintId} className="text-xs text-neutral-600">
          {syntax ?? t("decision.suggestHint", { tool: toolName })}
        </p>
      </div>
      {error ? <DecisionErrorAlert error={error} /> : null}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          className="text-red-700 hover:bg-red-50 hover:text-red-800"
          onClick={() => void submit()}
          disabled={pending}
        >
          {pending ? t("decision.declining") : t("decision.suggestSubmit")}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={pending}>
          {t("common.cancel")}
        </Button>
      </div>
    </div>
  );
}
