"use client";

import { useTranslations } from "next-intl";
import type { AssigneeDto } from "@/lib/queue/dto";
import { useViewer } from "@/components/viewer";
import { cn } from "@/components/ui/cn";

/** A queue row's one line on who holds the call, "you" in colour so a reviewer spots their own. */
export function AssigneeNote({ assignee }: { assignee: AssigneeDto }) {
  const t = useTranslations("assignment");
  const viewer = useViewer();
  const mine = assignee.id === viewer?.id;
  return (
    <span className={cn("text-xs", mine ? "font-medium text-sky-800" : "text-neutral-500")} data-testid="row-assignee">
      {t("assignedToText", { name: assigneeName(assignee, viewer?.id, t("you")) })}
    </span>
  );
}

/** `you` (the reader's word for it) for the viewer, else the person's name (their email when the name says nothing more). */
export function assigneeName(assignee: Pick<AssigneeDto, "id" | "name" | "email">, viewerId: string | undefined, you: string): string {
  if (assignee.id === viewerId) return you;
  return assignee.name && assignee.name !== assignee.email ? `${assignee.name} (${assignee.email})` : assignee.email;
}
