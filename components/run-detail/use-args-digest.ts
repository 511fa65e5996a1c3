"use client";

import { useEffect, useState } from "react";
import { argsDigestText } from "@/lib/audit/args-digest-text";

/**
 * The SHA-256 of what the form shows the reviewer (lib/audit/args-digest-text.ts), sent with the
 * decision: the server refuses it if the call no longer waits on exactly that. Undefined until
 * computed, and where the browser has no Web Crypto (a page served over plain HTTP to another
 * host): the server then records the digest of what it read (README "Argument digest").
 */
export function useArgsDigest(shown: unknown): string | undefined {
  const text = argsDigestText(shown);
  const [digest, setDigest] = useState<{ text: string; hex: string }>();
  useEffect(() => {
    const subtle = globalThis.crypto?.subtle;
    if (!subtle) return;
    let current = true;
    subtle
      .digest("SHA-256", new TextEncoder().encode(text))
      .then((buffer) => {
        const hex = Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
        if (current) setDigest({ text, hex });
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [text]);
  return digest?.text === text ? digest.hex : undefined;
}
