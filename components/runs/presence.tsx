"use client";

/**
 * Presence: who else has a call open right now (components/runs/live-presence.ts), shown beside
 * "being decided by", and the hook an open call registers itself with. The runs page and a run's
 * page hold a live stream; elsewhere nothing is sent and nobody is shown.
 */
import { useTranslations } from "next-intl";
import { useEffect, useSyncExternalStore } from "react";
import { Badge } from "@/components/ui/badge";
import type { PresenceViewerDto } from "@/lib/live/types";
import { livePresence } from "./live-presence";

const NOBODY: PresenceViewerDto[] = [];
const noSubscription = () => () => {};

/** Who else has the call open now. */
export function useOthersOn(runId: string, toolCallId: string | undefined): PresenceViewerDto[] {
  const presence = livePresence();
  return useSyncExternalStore(
    presence?.subscribe ?? noSubscription,
    () => (presence && toolCallId ? presence.othersOn(runId, toolCallId) : NOBODY),
    () => NOBODY,
  );
}

/** While the component is shown, this tab has the call open. */
export function useOpenCall(runId: string, toolCallId: string | undefined) {
  useEffect(() => {
    const presence = livePresence();
    return presence && toolCallId ? presence.openCall(runId, toolCallId) : undefined;
  }, [runId, toolCallId]);
}

/** "Open by Ada, Grace": the others who have the call open, if any. */
export function OpenByBadge({ runId, toolCallId, className }: { runId: string; toolCallId: string | undefined; className?: string }) {
  const t = useTranslations("queue.badges");
  const others = useOthersOn(runId, toolCallId);
  if (others.length === 0) return null;
  const names = others.map((viewer) => viewer.name).join(", ");
  return (
    <Badge variant="secondary" wraps className={className} title={t("openByTitle", { names })}>
      {t("openBy", { names })}
    </Badge>
  );
}
