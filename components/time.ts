/**
 * Time formatting shared by the list and the detail page, in the reader's language and time zone
 * (next-intl's formatter: the same text on server and client, since both get the same zone).
 */
import { useFormatter, useTranslations } from "next-intl";
import { useCallback } from "react";

/** The full form of a moment: date, time to the second, and the zone's short name. */
export const TIMESTAMP_FORMAT = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZoneName: "short",
} as const satisfies Intl.DateTimeFormatOptions;

/** "Dec 4, 2026, 02:46:36 UTC" in English, "2026년 12월 4일 오전 02:46:36 UTC" in Korean; an unreadable value as given. */
export function useTimestamp(): (iso: string) => string {
  const format = useFormatter();
  return useCallback(
    (iso: string) => {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : format.dateTime(date, TIMESTAMP_FORMAT);
    },
    [format],
  );
}

/** A length of time, "< 1 min", "12 min", "3 h 5 min", "2 d 4 h", in the reader's language. */
export function useDuration(): (ms: number) => string {
  const t = useTranslations("time");
  return useCallback(
    (ms: number) => {
      const minutes = Math.floor(Math.max(0, ms) / 60_000);
      if (minutes < 1) return t("underAMinute");
      if (minutes < 60) return t("minutes", { minutes });
      const hours = Math.floor(minutes / 60);
      if (hours < 24) return minutes % 60 ? t("hoursMinutes", { hours, minutes: minutes % 60 }) : t("hours", { hours });
      const days = Math.floor(hours / 24);
      return hours % 24 ? t("daysHours", { days, hours: hours % 24 }) : t("days", { days });
    },
    [t],
  );
}

/** How long since `fromIso`, as useDuration words it. */
export function useWait(): (fromIso: string, now: number) => string {
  const duration = useDuration();
  return useCallback((fromIso: string, now: number) => duration(now - new Date(fromIso).getTime()), [duration]);
}

/** "2026-11-30 02:46:36 UTC": the English-only form, for files not yet converted to the catalogs. */
export function formatTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** The English-only wait, for files not yet converted to the catalogs. */
export function formatWait(fromIso: string, now: number): string {
  const ms = Math.max(0, now - new Date(fromIso).getTime());
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "< 1 min";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}
