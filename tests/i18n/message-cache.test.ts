/**
 * Parsed messages outlive the request (lib/i18n/message-cache.ts): next-intl hands the request
 * configuration's `_cache` to its translators, and use-intl keeps each parsed message there, so a
 * later request's translator (with formatters of its own, as next-intl makes per request) parses
 * nothing again.
 */
import { readFileSync } from "node:fs";
import { _createCache, _createIntlFormatters, createTranslator } from "use-intl/core";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalogs.ts";
import { MESSAGE_CACHES_KEPT, messageCacheFor } from "../../lib/i18n/message-cache.ts";

const shared = messageCacheFor("en", "Europe/Berlin");

/**
 * A request's translator as next-intl (server/react-server/getConfig.js, getServerTranslator.js)
 * makes it: the request configuration spread, with that request's own formatters.
 */
const requestTranslator = (namespace: "queue") =>
  createTranslator({
    locale: "en",
    timeZone: "Europe/Berlin",
    messages: CATALOGS.en,
    _cache: shared,
    _formatters: _createIntlFormatters(_createCache()),
    namespace,
  });

describe("parsed messages shared across requests", () => {
  it("next-intl spreads the request configuration into its translators' (so `_cache` reaches them)", () => {
    // Read from the installed next-intl: an upgrade that stops passing the option on fails here.
    for (const build of ["production", "development"]) {
      const getConfig = readFileSync(`node_modules/next-intl/dist/esm/${build}/server/react-server/getConfig.js`, "utf8");
      // The configuration (initializeConfig keeps what it does not know) spread first, then only its own formatters.
      expect(getConfig).toMatch(/return\s*\{\s*\.\.\.\w+\(\w+\),\s*_formatters:/);
      expect(getConfig).not.toMatch(/_cache:/);
      const translator = readFileSync(`node_modules/next-intl/dist/esm/${build}/server/react-server/getServerTranslator.js`, "utf8");
      expect(translator).toContain("createTranslator");
      expect(translator).toMatch(/\(\s*\{\s*\.\.\.\w+,\s*namespace\b/);
    }
  });

  it("a second request's translator parses nothing again", () => {
    const first = requestTranslator("queue");
    expect(first("announce", { action: "approve", tool: "issueRefund" })).toBe("Approved issueRefund");
    const parsed = Object.values(shared.message);
    expect(parsed.length).toBeGreaterThan(0);

    const second = requestTranslator("queue");
    expect(second("announce", { action: "decline", tool: "issueRefund" })).toBe("Declined issueRefund");
    expect(Object.values(shared.message)).toEqual(parsed);
    expect(Object.values(shared.message)[0]).toBe(parsed[0]);
  });

  it("one cache per language and time zone, the least recently used let go past the limit", () => {
    expect(messageCacheFor("en", "Europe/Berlin")).toBe(shared);
    expect(messageCacheFor("ko", "Europe/Berlin")).not.toBe(shared);
    for (let i = 0; i < MESSAGE_CACHES_KEPT - 2; i++) messageCacheFor("en", `Etc/GMT+${i}`);
    expect(messageCacheFor("en", "Europe/Berlin")).toBe(shared);
    messageCacheFor("en", "Asia/Tokyo");
    messageCacheFor("zh-TW", "Asia/Tokyo");
    expect(messageCacheFor("en", "Europe/Berlin")).toBe(shared);
  });
});
