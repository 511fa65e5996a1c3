/**
 * Where sign-in sends people back to (lib/auth/page-access.ts `safeReturnPath`): paths of this
 * console only, judged as a browser's URL parser reads them, whatever the link was dressed up as.
 */
import { describe, expect, it } from "vitest";
import { safeReturnPath } from "../../lib/auth/page-access.ts";

const CONSOLE = "http://console.example";

describe("safeReturnPath", () => {
  it.each([
    "/",
    "/runs/run_123",
    "/?resourceId=cust_1&page=2",
    "/history?outcome=applied#top",
    "/runs/%2F%2Fevil.example",
    "/%09/evil.example/",
  ])("keeps the console's own path %j", (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });

  it.each([
    ["//evil.example", "protocol-relative"],
    ["///evil.example", "three slashes"],
    ["/\\evil.example", "backslash"],
    ["\\\\evil.example", "two backslashes"],
    ["/\t/evil.example/", "tab after the first slash"],
    ["/\r/evil.example", "carriage return"],
    ["/\n/evil.example", "line feed"],
    ["/\t\\evil.example", "tab and backslash"],
    ["\t//evil.example", "leading tab"],
    [" //evil.example", "leading space"],
    ["/.//evil.example", "dot segment collapsing into //"],
    ["/./\t/evil.example", "dot segment and tab"],
    ["https://evil.example/", "absolute URL"],
    ["http:evil.example", "scheme without slashes"],
    ["javascript:alert(1)", "javascript: URL"],
    ["JaVaScRiPt:alert(1)", "javascript: URL, mixed case"],
    ["data:text/html,<script>alert(1)</script>", "data: URL"],
    ["evil.example", "no leading slash"],
    ["", "empty"],
  ])("sends %j (%s) to /", (path) => {
    expect(safeReturnPath(path)).toBe("/");
  });

  it("decodes a query-string value once, as the sign-in page receives it", () => {
    for (const encoded of ["%2F%09%2Fevil.example%2F", "%2F%0D%2Fevil.example", "%2F%0A%2Fevil.example", "%2F%5Cevil.example", "%2F%2Fevil.example"]) {
      const next = new URLSearchParams(`next=${encoded}`).get("next");
      expect(safeReturnPath(next), encoded).toBe("/");
    }
    expect(safeReturnPath(null)).toBe("/");
    expect(safeReturnPath(undefined)).toBe("/");
  });

  it("never returns anything that leaves the console when a browser resolves it", () => {
    const hostile = ["/\t/evil.example", "/.//evil.example", "/\\/evil.example", "/%2e/%2e//evil.example", "/a/../\t/evil.example", "/\u0000//evil.example"];
    for (const path of hostile) {
      expect(new URL(safeReturnPath(path), CONSOLE).origin, JSON.stringify(path)).toBe(CONSOLE);
    }
  });
});
