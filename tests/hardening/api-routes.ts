/**
 * Every route handler under app/api, read from the file system (not from a list a new route could be
 * missing from): its URL pattern, the methods it exports and its dynamic segments. The hardening
 * tests walk these, so a route added later is walked too, or the test says it is not.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface ApiRoute {
  /** `app/api/admin/rules/[id]/route.ts` */
  file: string;
  /** `/api/admin/rules/[id]` */
  pattern: string;
  methods: string[];
  /** The dynamic segments' names, in order (`[...all]` is `all`). */
  params: string[];
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

export function apiRoutes(root = "app/api"): ApiRoute[] {
  const files = readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => path.join(root, file))
    .sort();
  return files.map((file) => {
    const pattern = `/${path.dirname(file).split(path.sep).slice(1).join("/")}`;
    return { file, pattern, methods: exportedMethods(readFileSync(file, "utf8")), params: paramsOf(pattern) };
  });
}

/** `export async function PUT`, `export const GET =`, and `export { handle as GET, … }`. */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const [, name] of source.matchAll(/export\s+(?:async\s+)?(?:function|const)\s+([A-Z]+)\b/g)) found.add(name!);
  for (const [, list] of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const [, name] of list!.matchAll(/\bas\s+([A-Z]+)\b/g)) found.add(name!);
  }
  return METHODS.filter((method) => found.has(method));
}

function paramsOf(pattern: string): string[] {
  return [...pattern.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map(([, name]) => name!);
}

/** `GET /api/admin/rules/[id]` for each method of each route. */
export function routeKeys(routes = apiRoutes()): string[] {
  return routes.flatMap((route) => route.methods.map((method) => `${method} ${route.pattern}`)).sort();
}

/**
 * The pattern with its segments filled in: each value percent-encoded, unless `raw` (already
 * escaped as it is to be sent); a catch-all's value (`sign-in/email`) is a path of its own, as is.
 */
export function fillPattern(pattern: string, values: Record<string, string>, { raw = false } = {}): string {
  return pattern.replace(/\[(\.\.\.)?(\w+)\]/g, (_, catchAll: string | undefined, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for [${name}] in ${pattern}`);
    return raw || catchAll ? value : encodeURIComponent(value);
  });
}
