"use client";

/**
 * Tells the server the browser's time zone (a cookie), for users who chose none on /profile, and
 * re-renders once if the page was drawn in another zone. The server validates the cookie.
 */
import { useTimeZone } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { BROWSER_TIME_ZONE_COOKIE } from "@/lib/i18n/time-zones";

export function BrowserTimeZone() {
  const router = useRouter();
  const rendered = useTimeZone();
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // IANA names (letters, digits, "/", "_", "+", "-") need no escaping in a cookie.
    if (!zone) return;
    const current = document.cookie.split("; ").find((part) => part.startsWith(`${BROWSER_TIME_ZONE_COOKIE}=`));
    if (current === `${BROWSER_TIME_ZONE_COOKIE}=${zone}`) return;
    document.cookie = `${BROWSER_TIME_ZONE_COOKIE}=${zone}; path=/; max-age=31536000; samesite=lax`;
    if (zone !== rendered) router.refresh();
  }, [rendered, router]);
  return null;
}
