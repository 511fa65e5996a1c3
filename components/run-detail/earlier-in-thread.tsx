/**
 * "Earlier in this thread": the messages of the run's memory thread from before this run that its
 * agent remembers (none when it keeps no memory: lib/decisions/earlier-in-thread.ts), offered under the Conversation and loaded only when asked for, a page at a
 * time (lib/actions/read-earlier-in-thread.ts). Text only: React text nodes, long texts folded under
 * Show more, as in the Conversation.
 */
"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { readEarlierInThread } from "@/lib/actions/read-earlier-in-thread";
import type { EarlierInThreadPage } from "@/lib/runs/conversation-dto";
import { Button } from "@/components/ui/button";
import { ConversationMessage } from "./conversation-message";
import { loadOrThrow, useLoadFailureText } from "./load-failure";

function fetchPage(runId: string, before: string | undefined): Promise<EarlierInThreadPage> {
  return loadOrThrow(() => readEarlierInThread({ runId, before }));
}

export function EarlierInThread({ runId }: { runId: string }) {
  const t = useTranslations("runDetail");
  const common = useTranslations("common");
  const failureText = useLoadFailureText();
  const [open, setOpen] = useState(false);
  const query = useInfiniteQuery({
    queryKey: ["earlier-in-thread", runId],
    queryFn: ({ pageParam }) => fetchPage(runId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.before ?? undefined,
    enabled: open,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const pages = query.data?.pages ?? [];
  // Pages come newest first: the earliest loaded is the last, and each is oldest first.
  const messages = [...pages].reverse().flatMap((page) => page.messages);
  const remaining = pages.at(-1)?.remaining ?? 0;

  if (!open) {
    return (
      <Button variant="outline" size="xs" className="self-start" aria-expanded={false} onClick={() => setOpen(true)}>
        {t("earlierInThread.title")}
      </Button>
    );
  }
  return (
    <section aria-label={t("earlierInThread.title")} className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold text-neutral-900">{t("earlierInThread.title")}</h3>
      {query.isPending ? (
        <p className="text-sm text-neutral-500" aria-busy="true">
          {t("earlierInThread.loading")}
        </p>
      ) : query.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {t("earlierInThread.failed", { error: failureText(query.error) })}{" "}
          <Button variant="outline" size="xs" onClick={() => void query.refetch()}>
            {common("retry")}
          </Button>
        </p>
      ) : messages.length === 0 ? (
        <p className="text-sm text-neutral-600">
          {!pages[0]?.threadId
            ? t("earlierInThread.noThread")
            : pages[0].agentRemembers
              ? t("earlierInThread.none")
              : t("earlierInThread.noMemory")}
        </p>
      ) : (
        <>
          {remaining > 0 ? (
            <Button
              variant="outline"
              size="xs"
              className="self-start"
              onClick={() => void query.fetchNextPage()}
              disabled={query.isFetchingNextPage}
            >
              {query.isFetchingNextPage ? t("loading") : t("showEarlier", { count: remaining })}
            </Button>
          ) : null}
          <ol className="flex flex-col gap-2">
            {messages.map((message, index) => (
              <ConversationMessage key={`${message.id}:${index}`} message={message} pendingToolCallIds={[]} />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
