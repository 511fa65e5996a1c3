/**
 * IANA time zones the console accepts: what this runtime's Intl knows (Intl.supportedValuesOf),
 * plus UTC, which the list leaves out. Browser-safe: the profile form lists them from here.
 */
export const DEFAULT_TIME_ZONE = "UTC";

let known: Set<string> | undefined;

export function timeZones(): string[] {
  return [DEFAULT_TIME_ZONE, ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== DEFAULT_TIME_ZONE)];
}

export function isTimeZone(value: unknown): value is string {
  known ??= new Set(timeZones());
  return typeof value === "string" && known.has(value);
}

/** The cookie in which the browser tells the server its own zone, for users who chose none. */
export const BROWSER_TIME_ZONE_COOKIE = "tz";
