/**
 * Where sign-in sends people back to (lib/auth/page-access.ts `safeReturnPath`): paths of this
 * console only, judged as a browser's URL parser reads them, whatever the link was dressed up as.
 */
import { describe, expect, it } from "vitest";
import { safeReturnPath } from "../../lib/auth/page-access.ts";

const CONSOLE = "http://console.example";

/** Each a way to write another site (or a script) where a path is expected. */
const HOSTILE = [
  "//evil.example",
  "///evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "/\t/evil.example/",
  "/\r/evil.example",
  "/\n/evil.example",
  "/\t\\evil.example",
  "/\r\n/evil.example",
  "\t//evil.example",
  " //evil.example",
  "/.//evil.example",
  "/./\t/evil.example",
  "/%2e//evil.example",
  "/a/../\t/evil.example",
  "https://evil.example/",
  "http:evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "evil.example",
  "",
];

/** The same, as they arrive in `?next=` (decoded once by the sign-in page). */
const HOSTILE_ENCODED = [
  "%2F%09%2Fevil.example%2F",
  "%2F%0D%2Fevil.example",
  "%2F%0A%2Fevil.example",
  "%2F%5Cevil.example",
  "%2F%2Fevil.example",
  "javascript%3Aalert(1)",
];

describe("safeReturnPath", () => {
  it("turns every way of writing another site into /", () => {
    for (const path of HOSTILE) expect(safeReturnPath(path), JSON.stringify(path)).toBe("/");
    for (const encoded of HOSTILE_ENCODED) expect(safeReturnPath(new URLSearchParams(`next=${encoded}`).get("next")), encoded).toBe("/");
    expect(safeReturnPath(null)).toBe("/");
    expect(safeReturnPath(undefined)).toBe("/");
  });

  it("keeps the console's own paths, and returns nothing a browser would resolve elsewhere", () => {
    for (const path of [
      "/",
      "/runs/run_123",
      "/?resourceId=cust_1&page=2",
      "/history?outcome=applied#top",
      "/runs/%2F%2Fevil.example",
      "/%09/evil.example/",
    ]) {
      expect(safeReturnPath(path)).toBe(path);
    }
    // As the pages build them, with or without a query.
    expect(safeReturnPath(`/history?${new URLSearchParams({})}`)).toBe("/history");
    expect(safeReturnPath(`/history?${new URLSearchParams({ outcome: "applied" })}`)).toBe("/history?outcome=applied");
    for (const path of [...HOSTILE, "/\u0000//evil.example", "/runs/\t/x"]) {
      expect(new URL(safeReturnPath(path), CONSOLE).origin, JSON.stringify(path)).toBe(CONSOLE);
    }
  });
});
