"use client";

import { useCallback } from "react";
import { argsDigestText } from "@/lib/audit/args-digest-text";

/** Resolves to a digest, or undefined where it cannot be taken. */
export type ArgsDigestOf = () => Promise<string | undefined>;

/**
 * The SHA-256 of what the form shows the reviewer (lib/audit/args-digest-text.ts), taken when the
 * decision is sent and sent with it: the server refuses it if the call no longer waits on exactly
 * that. Undefined where the browser has no Web Crypto (a page served over plain HTTP to another
 * host): the server then records the digest of what it read (docs/audit.md, "Argument digest").
 */
export function useArgsDigest(shown: unknown): ArgsDigestOf {
  const text = argsDigestText(shown);
  return useCallback(async () => {
    const subtle = globalThis.crypto?.subtle;
    if (!subtle) return undefined;
    try {
      const buffer = await subtle.digest("SHA-256", new TextEncoder().encode(text));
      return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
    } catch {
      return undefined;
    }
  }, [text]);
}
