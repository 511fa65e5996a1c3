"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { useEffect, useState, type ReactNode } from "react";
import { DecisionAnnouncerProvider } from "@/components/runs/decision-announcer";

export function Providers({ children }: { children: ReactNode }) {
  // Set once the page has hydrated (effects run after the whole tree's): until then a key or a
  // selection is lost, so scripted browsers (the e2e suite) wait for it before acting.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 2_000, refetchOnWindowFocus: true },
        },
      }),
  );
  return (
    <NuqsAdapter>
      <QueryClientProvider client={queryClient}>
        <DecisionAnnouncerProvider>{children}</DecisionAnnouncerProvider>
      </QueryClientProvider>
    </NuqsAdapter>
  );
}
