"use client";

/**
 * Who holds a call or a thread, and the buttons to change it: "Assign to me" for anyone who
 * decides (on what nobody holds), "Unassign" for the holder, and for admins "Assign to…" anyone who
 * may decide. The server (lib/assignments) checks all of it again; the page follows the result.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import { assignThread } from "@/lib/actions/assign-thread";
import { assignToolCall } from "@/lib/actions/assign-tool-call";
import { listAssignableUsers } from "@/lib/actions/list-assignable-users";
import type { ActionResult } from "@/lib/actions/result";
import { can } from "@/lib/auth/roles";
import type { AssigneeDto } from "@/lib/queue/dto";
import { refreshRuns } from "@/components/runs/runs-query";
import { useErrorText } from "@/components/error-text";
import { useTimestamp } from "@/components/time";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { useViewer } from "@/components/viewer";
import { assigneeName } from "./assignee-note";

export type AssignmentTarget = { kind: "call"; runId: string; toolCallId: string } | { kind: "thread"; threadId: string };

interface AssigneeControlProps {
  target: AssignmentTarget;
  assignee?: AssigneeDto;
  /** The words for the target in labels: "this call", "thread ticket-1". */
  targetLabel: string;
  /**
   * What shows the change: the queue re-reads its list (React Query); a run page, rendered on the
   * server, is rendered again. Never both: the queue's page render is a second listing nobody sees.
   */
  shownBy?: "queue" | "page";
  className?: string;
}

export function AssigneeControl({ target, assignee, targetLabel, shownBy = "queue", className }: AssigneeControlProps) {
  const t = useTranslations("assignment");
  const timestamp = useTimestamp();
  const errorText = useErrorText();
  const viewer = useViewer();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [choosing, setChoosing] = useState(false);
  const selectId = useId();
  const mayDecide = can(viewer?.role, "decide");
  const mayAssignOthers = can(viewer?.role, "assignOthers");
  const mine = assignee && assignee.id === viewer?.id;
  // A thread's call held through its thread is changed on the thread.
  const heldElsewhere = target.kind === "call" && assignee?.via === "thread";

  const assign = (assigneeId: string | null) =>
    startTransition(async () => {
      setError(null);
      let result: ActionResult<unknown>;
      try {
        result =
          target.kind === "call"
            ? await assignToolCall({ runId: target.runId, toolCallId: target.toolCallId, assigneeId })
            : await assignThread({ threadId: target.threadId, assigneeId });
      } catch {
        setError(t("unreachable"));
        return;
      }
      if (!result.ok) {
        setError(errorText(result.error));
        return;
      }
      setChoosing(false);
      if (shownBy === "page") router.refresh();
      else refreshRuns(queryClient);
    });

  // Nobody holds it and this role cannot take it: nothing to say.
  if (!assignee && !mayDecide) return null;
  return (
    <span className={cn("inline-flex flex-wrap items-center gap-2 text-xs", className)} data-testid="assignee">
      {assignee ? (
        <span className="text-neutral-600" title={t("assignedByAt", { by: assignee.assignedBy, time: timestamp(assignee.assignedAt) })}>
          {t.rich("assignedTo", {
            name: () => (
              <span className={cn("font-medium", mine ? "text-sky-800" : "text-neutral-900")} data-testid="assignee-name">
                {assigneeName(assignee, viewer?.id, t("you"))}
              </span>
            ),
          })}
          {heldElsewhere ? ` ${t("withThread")}` : null}
          {assignee.exclusive ? <span className="text-neutral-500"> {t("onlyThey")}</span> : null}
        </span>
      ) : (
        <span className="text-neutral-500">{t("unassigned")}</span>
      )}
      {mayDecide && !assignee ? (
        <Button
          size="xs"
          variant="outline"
          disabled={pending}
          onClick={() => viewer && assign(viewer.id)}
          // The visible words first: a name that contains them is what speech input users say (WCAG 2.5.3).
          aria-label={t("assignToMeLabel", { target: targetLabel })}
        >
          {t("assignToMe")}
        </Button>
      ) : null}
      {assignee && !heldElsewhere && (mine || mayAssignOthers) ? (
        <Button
          size="xs"
          variant="ghost"
          disabled={pending}
          onClick={() => assign(null)}
          aria-label={t("unassignLabel", { target: targetLabel })}
        >
          {t("unassign")}
        </Button>
      ) : null}
      {mayAssignOthers && !heldElsewhere ? (
        choosing ? (
          <AssignToSelect id={selectId} targetLabel={targetLabel} disabled={pending} onPick={assign} onCancel={() => setChoosing(false)} />
        ) : (
          <Button
            size="xs"
            variant="ghost"
            disabled={pending}
            onClick={() => setChoosing(true)}
            aria-label={t("assignToLabel", { target: targetLabel })}
          >
            {t("assignTo")}
          </Button>
        )
      ) : null}
      {error ? (
        <span role="alert" className="basis-full text-red-800 [overflow-wrap:anywhere]">
          {error}
        </span>
      ) : null}
    </span>
  );
}

/** An admin's pick of anyone who may decide, read when opened. */
function AssignToSelect({
  id,
  targetLabel,
  disabled,
  onPick,
  onCancel,
}: {
  id: string;
  targetLabel: string;
  disabled: boolean;
  onPick: (userId: string) => void;
  onCancel: () => void;
}) {
  const t = useTranslations("assignment");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const users = useQuery({
    queryKey: ["assignable-users"],
    queryFn: async () => {
      const result = await listAssignableUsers({});
      if (!result.ok) throw new Error(errorText(result.error));
      return result.data;
    },
    staleTime: 60_000,
  });
  if (users.isError) return <span className="text-red-800">{users.error.message}</span>;
  return (
    <span className="inline-flex items-center gap-1">
      <label htmlFor={id} className="sr-only">
        {t("assignTargetTo", { target: targetLabel })}
      </label>
      <select
        id={id}
        autoFocus
        disabled={disabled || users.isPending}
        defaultValue=""
        onChange={(event) => event.target.value && onPick(event.target.value)}
        onKeyDown={(event) => event.key === "Escape" && onCancel()}
        className="h-7 rounded-md border border-neutral-300 bg-white px-2 text-xs"
      >
        <option value="">{users.isPending ? t("loading") : t("choose")}</option>
        {users.data?.map((user) => (
          <option key={user.id} value={user.id}>
            {user.name && user.name !== user.email ? t("userLabel", { name: user.name, email: user.email }) : user.email}
          </option>
        ))}
      </select>
      <Button size="xs" variant="ghost" onClick={onCancel}>
        {common("cancel")}
      </Button>
    </span>
  );
}
