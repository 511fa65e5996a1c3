"use client";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <Alert variant="destructive" role="alert" title="Something went wrong while loading this page">
      <p>
        The server could not complete the request{error.digest ? ` (reference ${error.digest})` : ""}. Try again; if it persists, check the
        server log.
      </p>
      <Button variant="outline" size="sm" className="mt-3" onClick={reset}>
        Retry
      </Button>
    </Alert>
  );
}
