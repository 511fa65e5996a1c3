"use client";

import { useState } from "react";
import type { DecisionOutcome, InterruptedDecision } from "@/lib/decisions/types";
import { ApprovalForm } from "./approval-form";
import { DecisionResult, DecisionStatusMessage } from "./decision-outcome";
import { ResumeForm } from "./resume-form";

interface ToolCallDecisionProps {
  runId: string;
  toolCallId?: string;
  toolName: string;
  requiresApproval: boolean;
  resumeSchema?: unknown;
  /** The call's last decision was interrupted: its tool may already have run. */
  interrupted?: InterruptedDecision;
  /** False for roles that may only read (support): the server refuses them anyway. */
  canDecide: boolean;
}

/** The decision on one pending call: the form, then its outcome. */
export function ToolCallDecision({
  runId,
  toolCallId,
  toolName,
  requiresApproval,
  resumeSchema,
  interrupted,
  canDecide,
}: ToolCallDecisionProps) {
  const [outcome, setOutcome] = useState<DecisionOutcome | null>(null);
  const onDecided = setOutcome;

  return (
    <div className="flex flex-col gap-4">
      {/* Always in the DOM, so assistive technology announces what gets written into it. */}
      <div role="status" aria-live="polite" aria-atomic="true" className="empty:absolute">
        {outcome ? <DecisionStatusMessage outcome={outcome} /> : null}
      </div>
      {outcome ? (
        <DecisionResult outcome={outcome} />
      ) : !canDecide ? (
        <p className="rounded-lg border border-neutral-200 bg-neutral-50 px-3 py-2.5 text-sm text-neutral-600">
          Your role can see this call but not decide it. A reviewer or an admin can.
        </p>
      ) : !toolCallId ? (
        <p className="text-sm text-neutral-600">This call has no tool call id, so it cannot be decided from the console.</p>
      ) : requiresApproval ? (
        <ApprovalForm runId={runId} toolCallId={toolCallId} toolName={toolName} interrupted={interrupted} onDecided={onDecided} />
      ) : (
        <ResumeForm
          runId={runId}
          toolCallId={toolCallId}
          toolName={toolName}
          resumeSchema={resumeSchema}
          interrupted={interrupted}
          onDecided={onDecided}
        />
      )}
    </div>
  );
}
