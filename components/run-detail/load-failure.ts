"use client";

/**
 * Why a panel of the run page (conversation, earlier messages) did not load: the server's refusal,
 * worded for the reader like every error it returns (components/error-text.ts), or no answer at all.
 */
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import type { ActionError } from "@/lib/actions/result";
import { useErrorText } from "@/components/error-text";

export class LoadFailure extends Error {
  /** `refusal` null: the server could not be reached. */
  constructor(readonly refusal: ActionError | null) {
    super(refusal?.message ?? "unreachable");
  }
}

/** Reads a page through a server action, throwing a LoadFailure when it refuses or cannot be reached. */
export async function loadOrThrow<T>(read: () => Promise<{ ok: true; data: T } | { ok: false; error: ActionError }>): Promise<T> {
  let result: Awaited<ReturnType<typeof read>>;
  try {
    result = await read();
  } catch {
    throw new LoadFailure(null);
  }
  if (!result.ok) throw new LoadFailure(result.error);
  return result.data;
}

export function useLoadFailureText(): (error: Error) => string {
  const t = useTranslations("runDetail");
  const errorText = useErrorText();
  return useCallback(
    (error: Error) => (error instanceof LoadFailure && error.refusal ? errorText(error.refusal) : t("unreachable")),
    [errorText, t],
  );
}
