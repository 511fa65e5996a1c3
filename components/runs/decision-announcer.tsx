"use client";

/**
 * One live region for the whole console (role="status", aria-live="polite"), present from the first
 * render so screen readers announce what is written into it: the outcome of a decision made in the
 * queue or on a run page, e.g. "Approved issueRefund". Visually hidden: the page shows the outcome
 * its own way.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";

type Announce = (text: string) => void;

const AnnouncerContext = createContext<Announce>(() => {});

export function DecisionAnnouncerProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<{ id: number; text: string } | null>(null);
  // A new node each time: the same words twice (two calls of one tool approved in a row) are announced twice.
  const announce = useCallback<Announce>((text) => setMessage((previous) => ({ id: (previous?.id ?? 0) + 1, text })), []);
  const value = useMemo(() => announce, [announce]);
  return (
    <AnnouncerContext.Provider value={value}>
      {children}
      <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="decision-announcer">
        {message ? <p key={message.id}>{message.text}</p> : null}
      </div>
    </AnnouncerContext.Provider>
  );
}

/** Writes into the console's live region (a no-op outside DecisionAnnouncerProvider). */
export function useAnnounce(): Announce {
  return useContext(AnnouncerContext);
}
