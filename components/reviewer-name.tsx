"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

const MAX = 80;

/**
 * Until sign-in exists, reviewers name themselves; the name goes with every decision into the
 * history (the server reads and checks it, lib/auth/reviewer.ts).
 */
export function ReviewerName({ name }: { name: string | null }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name ?? "");
  const router = useRouter();
  const inputId = useId();

  function save(event: FormEvent) {
    event.preventDefault();
    const value = draft.trim().slice(0, MAX);
    document.cookie = value
      ? `reviewer=${encodeURIComponent(value)}; path=/; max-age=31536000; samesite=lax`
      : "reviewer=; path=/; max-age=0; samesite=lax";
    setEditing(false);
    router.refresh();
  }

  if (!editing) {
    return (
      <div className="flex items-center gap-2 text-sm text-neutral-600">
        <span>
          Reviewing as <strong className="font-medium text-neutral-900">{name ?? "anonymous"}</strong>
        </span>
        <Button variant="ghost" size="xs" onClick={() => setEditing(true)}>
          {name ? "Change name" : "Set your name"}
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={save} className="flex items-center gap-2">
      <label htmlFor={inputId} className="text-sm text-neutral-600">
        Your name
      </label>
      <Input id={inputId} value={draft} maxLength={MAX} onChange={(event) => setDraft(event.target.value)} className="h-8 w-44" autoFocus />
      <Button type="submit" size="xs">
        Save
      </Button>
      <Button variant="ghost" size="xs" onClick={() => setEditing(false)}>
        Cancel
      </Button>
    </form>
  );
}
