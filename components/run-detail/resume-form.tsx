"use client";

import { useId, useMemo, useState } from "react";
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
import { isAlreadyDecided, useDecide } from "./use-decide";
import { buildValidator, exampleFromSchema } from "./resume-schema";

interface ResumeFormProps {
  runId: string;
  toolCallId: string;
  toolName: string;
  resumeSchema: unknown;
  /** The call's last decision was interrupted: resuming again needs an explicit confirmation. */
  interrupted?: InterruptedDecision;
  onDecided: (outcome: DecisionOutcome) => void;
}

type Check = { ok: true } | { ok: false; title: string; problems: string[] };

const encoder = new TextEncoder();

/** Checks the text as the reviewer types: JSON first, then the tool's schema (when zod can read it). */
function checkResumeData(text: string, validate: ReturnType<typeof buildValidator>, toolName: string): Check {
  if (encoder.encode(text).length > LIMITS.resumeDataBytes) {
    return { ok: false, title: `The resume data is larger than ${LIMITS.resumeDataBytes / 1024} KiB.`, problems: [] };
  }
  let value: unknown;
  try {
    if (text.trim() === "") throw new Error("the field is empty");
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, title: `Invalid JSON: ${(error as Error).message}`, problems: [] };
  }
  const problems = validate ? validate(value) : [];
  return problems.length ? { ok: false, title: `This does not match what ${toolName} expects:`, problems } : { ok: true };
}

/** A JSON editor for what a suspended tool asked for, validated before anything is sent. */
export function ResumeForm({ runId, toolCallId, toolName, resumeSchema, interrupted, onDecided }: ResumeFormProps) {
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const example = useMemo(() => JSON.stringify(exampleFromSchema(resumeSchema), null, 2), [resumeSchema]);
  const validate = useMemo(() => buildValidator(resumeSchema), [resumeSchema]);
  const decide = useDecide();
  const [text, setText] = useState(example);
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<ClientActionError | null>(null);
  const check = useMemo(() => checkResumeData(text, validate, toolName), [text, validate, toolName]);
  const [confirmed, setConfirmed] = useState(false);
  const [confirmationAsked, setConfirmationAsked] = useState<string | null>(null);
  const needsConfirmation = Boolean(interrupted) || confirmationAsked !== null;

  async function submit() {
    if (pending || !check.ok || (needsConfirmation && !confirmed)) return;
    setPending(true);
    setServerError(null);
    const result = await decide(() =>
      resumeToolCall({ runId, toolCallId, resumeData: text, ...(needsConfirmation && confirmed ? { confirmMayHaveRun: true } : {}) }),
    );
    setPending(false);
    if (result.ok) onDecided(result.data);
    else if (result.error.code === "confirmation_required") setConfirmationAsked(result.error.message);
    else setServerError(result.error);
  }

  const serverIssues =
    serverError && (serverError.code === "invalid_resume_data" || serverError.code === "invalid_input") ? serverError : null;
  const describedBy = [hintId, !check.ok || serverIssues ? errorId : null].filter(Boolean).join(" ");

  // Decided elsewhere: nothing left to decide here.
  if (serverError && isAlreadyDecided(serverError)) return <DecisionErrorAlert error={serverError} />;

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="flex items-end justify-between gap-2">
        <Label htmlFor={fieldId}>Resume data</Label>
        <Button variant="ghost" size="xs" onClick={() => setText(example)} disabled={pending || text === example}>
          Reset to example
        </Button>
      </div>
      <Textarea
        id={fieldId}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setServerError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void submit();
          }
        }}
        rows={Math.min(14, Math.max(5, text.split("\n").length + 1))}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        readOnly={pending}
        aria-invalid={!check.ok || Boolean(serverIssues)}
        aria-describedby={describedBy}
        className="font-mono text-[13px] leading-relaxed"
      />
      <p id={hintId} className="text-xs text-neutral-500">
        JSON, checked as you type against the schema the tool declared. Ctrl+Enter sends it.
      </p>
      {!check.ok ? (
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
        <Alert id={errorId} variant="destructive" role="alert" title="The server refused this resume data">
          <p className="[overflow-wrap:anywhere]">{serverIssues.message}</p>
          <IssueList issues={serverIssues.issues} className="font-mono text-xs" />
        </Alert>
      ) : serverError ? (
        <DecisionErrorAlert error={serverError} />
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
      <div>
        <Button type="submit" disabled={pending || !check.ok || (needsConfirmation && !confirmed)}>
          {pending ? "Resuming…" : "Resume"}
        </Button>
      </div>
    </form>
  );
}
