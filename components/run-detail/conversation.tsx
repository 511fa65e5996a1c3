/**
 * The conversation behind a waiting call (region "Conversation"): the run's messages oldest first,
 * the agent's instructions folded under "Instructions", earlier pages on demand. Read when a call
 * opens, once per run (lib/actions/read-conversation.ts), never with the queue page.
 */
"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { readConversation } from "@/lib/actions/read-conversation";
import type { ConversationPage } from "@/lib/runs/conversation-dto";
import { Button } from "@/components/ui/button";
import { ConversationMessage, LongText } from "./conversation-message";
import { loadOrThrow, useLoadFailureText } from "./load-failure";

export function conversationQueryKey(runId: string) {
  return ["conversation", runId] as const;
}

function fetchPage(runId: string, before: number | undefined): Promise<ConversationPage | null> {
  return loadOrThrow(() => readConversation({ runId, before }));
}

export function Conversation({ runId, pendingToolCallIds }: { runId: string; pendingToolCallIds: string[] }) {
  const t = useTranslations("runDetail");
  const common = useTranslations("common");
  const failureText = useLoadFailureText();
  const query = useInfiniteQuery({
    queryKey: conversationQueryKey(runId),
    queryFn: ({ pageParam }) => fetchPage(runId, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => (page && page.start > 0 ? page.start : undefined),
    staleTime: 5 * 60_000,
    retry: false,
  });

  const pages = query.data?.pages.filter((page): page is ConversationPage => page !== null) ?? [];
  const first = pages[0];
  // Pages come newest first: the earliest page loaded is the last one.
  const messages = [...pages].reverse().flatMap((page) => page.messages);
  const earlier = pages.at(-1)?.start ?? 0;

  return (
    <section aria-label={t("conversation.title")} className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold text-neutral-900">{t("conversation.title")}</h3>
      {query.isPending ? (
        <p className="text-sm text-neutral-500" aria-busy="true">
          {t("conversation.loading")}
        </p>
      ) : query.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {t("conversation.failed", { error: failureText(query.error) })}{" "}
          <Button variant="outline" size="xs" onClick={() => void query.refetch()}>
            {common("retry")}
          </Button>
        </p>
      ) : !first ? (
        <p className="text-sm text-neutral-600">{t("conversation.none")}</p>
      ) : (
        <>
          {first.instructions.length > 0 ? (
            <details className="rounded-md border border-neutral-200 px-3 py-2 text-sm">
              <summary className="cursor-pointer font-medium text-neutral-700">{t("conversation.instructions")}</summary>
              <div className="mt-2 flex flex-col gap-2">
                {first.instructions.map((instruction, index) => (
                  <LongText key={index} text={instruction.text} length={instruction.length} />
                ))}
              </div>
            </details>
          ) : null}
          {earlier > 0 ? (
            <Button
              variant="outline"
              size="xs"
              className="self-start"
              onClick={() => void query.fetchNextPage()}
              disabled={query.isFetchingNextPage}
            >
              {query.isFetchingNextPage ? t("loading") : t("showEarlier", { count: earlier })}
            </Button>
          ) : null}
          <ol className="flex flex-col gap-2">
            {messages.map((message, index) => (
              <ConversationMessage key={`${message.id}:${index}`} message={message} pendingToolCallIds={pendingToolCallIds} />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
