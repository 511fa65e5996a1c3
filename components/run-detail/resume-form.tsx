"use client";

import { useTranslations } from "next-intl";
import { useCallback, useId, useImperativeHandle, useMemo, useRef, useState, type Ref } from "react";
import { resumeToolCall } from "@/lib/actions/resume-tool-call";
import type { ClientActionError } from "@/lib/actions/result";
import type { DecisionOutcome, InterruptedDecision } from "@/lib/decisions/types";
import { LIMITS } from "@/lib/decisions/limits";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { DecisionErrorAlert, IssueList } from "./decision-error-alert";
import { MayHaveRunConfirmation } from "./may-have-run-confirmation";
import { useIssueText, useIssueWords } from "./issue-text";
import { isAlreadyDecided, useDecide, type DecisionControls } from "./use-decide";
import type { ArgsDigestOf } from "./use-args-digest";
import { skeletonFromSchema, type Validator } from "./resume-schema";
import { useSchemaValidator } from "./use-schema-validator";
import { suggestFieldValues, withField, type FieldSuggestions } from "./resume-suggestions";
import { jsonSyntaxWords } from "@/lib/decisions/json-syntax";
import { useErrorText } from "@/components/error-text";

interface ResumeFormProps {
  runId: string;
  toolCallId: string;
  toolName: string;
  resumeSchema: unknown;
  /** What the tool asked with: values it proposes (the address ids it lists) are offered as suggestions. */
  suspendPayload?: unknown;
  /** The call's last decision was interrupted: resuming again needs an explicit confirmation. */
  interrupted?: InterruptedDecision;
  onDecided: (outcome: DecisionOutcome) => void;
  /** Somebody (or something) decided the call first: the server refused with who, what and when. */
  onDecidedElsewhere?: (error: ClientActionError) => void;
  /** A row of the review queue: a shorter editor, the list updated by the caller. */
  compact?: boolean;
  /** The keyboard's handle on the form (review queue shortcuts). */
  controls?: Ref<DecisionControls>;
  /** Takes the digest of the suspend payload shown (use-args-digest.ts), sent with the decision. */
  argsDigest?: ArgsDigestOf;
}

type Check = { ok: true } | { ok: false; title: string; problems: string[] };

const encoder = new TextEncoder();

/** Checks the text as the reviewer types: JSON first, then the tool's schema (when zod can read it). */
function useCheckResumeData(): (text: string, validate: Validator | undefined, toolName: string) => Check {
  const t = useTranslations("runDetail.resume");
  const issueText = useIssueText();
  const issueWords = useIssueWords();
  return useCallback(
    (text: string, validate: Validator | undefined, toolName: string): Check => {
      if (encoder.encode(text).length > LIMITS.resumeDataBytes) {
        return { ok: false, title: t("tooLarge", { kib: LIMITS.resumeDataBytes / 1024 }), problems: [] };
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        // Line and column from our own scan, worded as the server words it (lib/decisions/issues.ts).
        const syntax = jsonSyntaxWords(text);
        return { ok: false, title: syntax ? issueWords(syntax) : t("notJson"), problems: [] };
      }
      const problems = (validate ? validate(value) : []).map(issueText);
      return problems.length ? { ok: false, title: t("mismatch", { tool: toolName }), problems } : { ok: true };
    },
    [t, issueText, issueWords],
  );
}

/** A JSON editor for what a suspended tool asked for, validated before anything is sent. */
export function ResumeForm({
  runId,
  toolCallId,
  toolName,
  resumeSchema,
  suspendPayload,
  interrupted,
  onDecided,
  onDecidedElsewhere,
  compact = false,
  controls,
  argsDigest,
}: ResumeFormProps) {
  const t = useTranslations("runDetail.resume");
  const decision = useTranslations("decision");
  const errorText = useErrorText();
  const checkResumeData = useCheckResumeData();
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const reasonId = useId();
  // The required fields, null until filled in: it cannot be sent as it is. No skeleton, no text.
  const skeleton = useMemo(() => skeletonFromSchema(resumeSchema), [resumeSchema]);
  const start = skeleton === null ? "" : JSON.stringify(skeleton, null, 2);
  const suggestions = useMemo(() => suggestFieldValues(resumeSchema, suspendPayload), [resumeSchema, suspendPayload]);
  const validate = useSchemaValidator(resumeSchema);
  const decide = useDecide({ deferListUpdate: compact });
  const editorRef = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(start);
  // No red before the reviewer has typed: the skeleton is incomplete on purpose.
  const [typed, setTyped] = useState(false);
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<ClientActionError | null>(null);
  const check = useMemo(() => checkResumeData(text, validate, toolName), [checkResumeData, text, validate, toolName]);
  const [confirmed, setConfirmed] = useState(false);
  const [confirmationAsked, setConfirmationAsked] = useState<string | null>(null);
  const needsConfirmation = Boolean(interrupted) || confirmationAsked !== null;

  async function submit() {
    if (pending || !check.ok || (needsConfirmation && !confirmed)) return;
    setPending(true);
    setServerError(null);
    const confirmation = needsConfirmation && confirmed ? { confirmMayHaveRun: true } : {};
    const digest = await argsDigest?.();
    const result = await decide(() => resumeToolCall({ runId, toolCallId, argsDigest: digest, resumeData: text, ...confirmation }));
    setPending(false);
    if (result.ok) onDecided(result.data);
    else if (result.error.code === "confirmation_required") setConfirmationAsked(result.error.message);
    else {
      if (isAlreadyDecided(result.error)) onDecidedElsewhere?.(result.error);
      setServerError(result.error);
    }
  }

  const serverIssues =
    serverError && (serverError.code === "invalid_resume_data" || serverError.code === "invalid_input") ? serverError : null;
  const showProblems = typed && !check.ok;
  const describedBy = [hintId, showProblems || serverIssues ? errorId : null].filter(Boolean).join(" ");
  const blocked = !check.ok
    ? t("blockedIncomplete", { problems: check.problems.length ? check.problems.slice(0, 5).join("; ") : check.title })
    : needsConfirmation && !confirmed
      ? t("blockedConfirm")
      : null;

  useImperativeHandle(controls, () => ({
    approve: () => {},
    focusApprove: () => {},
    focusReason: () => {},
    focusResume: () => editorRef.current?.focus(),
  }));

  // Decided elsewhere: nothing left to decide here.
  if (serverError && isAlreadyDecided(serverError)) return <DecisionErrorAlert error={serverError} compact={compact} />;

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="flex items-end justify-between gap-2">
        <Label htmlFor={fieldId}>{t("label")}</Label>
        <Button
          variant="ghost"
          size="xs"
          onClick={() => {
            setText(start);
            setTyped(false);
          }}
          disabled={pending || text === start}
        >
          {t("startOver")}
        </Button>
      </div>
      <Textarea
        ref={editorRef}
        id={fieldId}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setTyped(true);
          setServerError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void submit();
          }
        }}
        rows={Math.min(compact ? 8 : 14, Math.max(compact ? 3 : 5, text.split("\n").length + 1))}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        readOnly={pending}
        aria-invalid={showProblems || Boolean(serverIssues)}
        aria-describedby={describedBy}
        className="font-mono text-[13px] leading-relaxed"
      />
      <p id={hintId} className="text-xs text-neutral-500">
        {t("hint")}
        {/* No help without a keyboard (a touch screen). */}
        <span className="pointer-coarse:hidden"> {t("sendHint")}</span>
      </p>
      <SuggestionPicker
        fields={suggestions}
        disabled={pending}
        onPick={(field, value) => {
          setText((current) => withField(current, skeleton, field, value));
          setServerError(null);
        }}
      />
      {showProblems ? (
        <Alert id={errorId} variant="destructive" role="alert" title={check.title}>
          {check.problems.length ? (
            <ul className="list-disc pl-5 font-mono text-xs">
              {check.problems.slice(0, 20).map((problem, index) => (
                <li key={index}>{problem}</li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : serverIssues ? (
        <Alert id={errorId} variant="destructive" role="alert" title={t("serverRefused")}>
          <p className="[overflow-wrap:anywhere]">{errorText(serverIssues)}</p>
          <IssueList issues={serverIssues.issues} className="font-mono text-xs" />
        </Alert>
      ) : serverError ? (
        <DecisionErrorAlert error={serverError} compact={compact} />
      ) : null}
      {needsConfirmation ? (
        <MayHaveRunConfirmation
          interrupted={interrupted}
          serverMessage={confirmationAsked ?? undefined}
          verb="resuming"
          confirmed={confirmed}
          onConfirmedChange={setConfirmed}
          disabled={pending}
        />
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="submit"
          size={compact ? "sm" : "default"}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          disabled={pending || !check.ok || (needsConfirmation && !confirmed)}
          aria-describedby={blocked ? reasonId : undefined}
        >
          {pending ? t("resuming") : decision("resume")}
        </Button>
        {blocked && !pending ? (
          <p id={reasonId} className="min-w-0 flex-1 text-xs text-neutral-600 [overflow-wrap:anywhere]">
            {blocked}
          </p>
        ) : null}
      </div>
    </form>
  );
}

/** Values the schema allows or the request proposes, one click to fill the field. */
function SuggestionPicker({
  fields,
  disabled,
  onPick,
}: {
  fields: FieldSuggestions[];
  disabled: boolean;
  onPick: (field: string, value: unknown) => void;
}) {
  const t = useTranslations("runDetail.resume");
  if (fields.length === 0) return null;
  return (
    <div className="flex flex-col gap-1.5 rounded-lg border border-neutral-200 bg-neutral-50 px-3 py-2">
      <p className="text-xs font-medium text-neutral-600">{t("suggested")}</p>
      {fields.map(({ field, suggestions }) => (
        <div key={field} role="group" aria-label={t("suggestionsFor", { field })} className="flex flex-wrap items-center gap-1.5">
          <span className="font-mono text-xs text-neutral-700">{field}:</span>
          {suggestions.map((suggestion) => {
            const shown = JSON.stringify(suggestion.value);
            return (
              <Button
                key={shown}
                type="button"
                variant="outline"
                size="xs"
                disabled={disabled}
                className="max-w-full font-mono [overflow-wrap:anywhere]"
                onClick={() => onPick(field, suggestion.value)}
              >
                {typeof suggestion.value === "string" ? suggestion.value : shown}
                {suggestion.label ? <span className="ml-1 font-sans text-neutral-500">({suggestion.label})</span> : null}
              </Button>
            );
          })}
        </div>
      ))}
    </div>
  );
}
