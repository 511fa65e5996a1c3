/**
 * Each route sends the browser only the catalog namespaces its client components read
 * (lib/i18n/client-namespaces.ts): a client component that reads one its route does not pick would
 * show a MISSING_MESSAGE fallback in the browser, so it fails here instead.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_NAMESPACES, pickMessages } from "../../lib/i18n/client-namespaces.ts";
import { CATALOGS } from "../../lib/i18n/catalogs.ts";
import { clientModules, clientNamespaces, covers, importsCatalog, namespacesOf, providerScopes } from "./client-graph.ts";

const scopes = providerScopes();

describe("the messages each route sends to the browser", () => {
  it("every route with a provider has a list, and every list a route", () => {
    expect([...scopes.keys()].sort()).toEqual(Object.keys(CLIENT_NAMESPACES).sort());
  });

  for (const [route, files] of scopes) {
    it(`${route}: its client components read only namespaces it picks`, () => {
      const picked: readonly string[] = CLIENT_NAMESPACES[route as keyof typeof CLIENT_NAMESPACES] ?? [];
      const missing = [...clientNamespaces(files)].filter((namespace) => !covers(picked, namespace));
      expect(missing, `read under ${files.map((file) => path.relative(process.cwd(), file)).join(", ")}`).toEqual([]);
    });
  }

  it("no module the browser loads imports a catalog (the English is filled in on the server)", () => {
    const loaded = clientModules([...scopes.values()].flat());
    expect(loaded.size).toBeGreaterThan(20);
    expect([...loaded].filter(importsCatalog).map((file) => path.relative(process.cwd(), file))).toEqual([]);
  });

  it("every picked namespace is in the catalogs", () => {
    for (const [route, paths] of Object.entries(CLIENT_NAMESPACES))
      for (const name of paths) expect(Object.keys(pickMessages(CATALOGS.en, [name])), `${route}: ${name}`).not.toEqual([]);
  });

  it("no route sends two thirds of the catalog (the busiest, the queue and run pages, about 55%)", () => {
    const whole = JSON.stringify(CATALOGS.en).length;
    for (const [route, paths] of Object.entries(CLIENT_NAMESPACES))
      expect(JSON.stringify(pickMessages(CATALOGS.en, paths)).length, route).toBeLessThan((whole * 2) / 3);
  });
});

describe("the scan of a module's namespaces", () => {
  it("reads named, nested and template namespaces, and the dotted keys of a whole-catalog translator", () => {
    const source = `const a = useTranslations("queue.badges"); const b = useTranslations(\`history.\${group}\`);
      const t = useTranslations(); t("decision.noText"); t.rich("roles.admin"); t("plain");`;
    expect([...namespacesOf(source)].sort()).toEqual(["decision", "history", "queue.badges", "roles"]);
  });

  it("a key it cannot read is one no route covers", () => {
    expect([...namespacesOf("const t = useTranslations(); t(`${ns}.title`);")]).toEqual(["*"]);
    expect(covers(["queue", "run"], "*")).toBe(false);
  });

  it("a picked path covers what is below it, not its neighbours", () => {
    expect(covers(["admin"], "admin.rules")).toBe(true);
    expect(covers(["queue.badges"], "queue")).toBe(false);
    expect(covers(["run"], "runDetail")).toBe(false);
    expect(pickMessages({ a: { b: "x", c: "y" }, d: "z" }, ["a.b", "missing.path"])).toEqual({ a: { b: "x" } });
  });
});
