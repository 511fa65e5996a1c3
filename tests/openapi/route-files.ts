/**
 * The route files under app/api and their exported methods, as the OpenAPI document should list
 * them (tests/openapi/route-coverage.test.ts): `[id]` is `{id}`; a catch-all (`[...all]`, better-auth's)
 * is a prefix whose endpoints are listed elsewhere (lib/auth/endpoints.ts).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface RouteFile {
  file: string;
  /** OpenAPI's spelling of its path; for a catch-all, the prefix before it (`/api/auth`). */
  path: string;
  catchAll: boolean;
  methods: string[];
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

export function routeFiles(root: string): RouteFile[] {
  return walk(path.join(root, "app/api"))
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => {
      const segments = path.relative(path.join(root, "app"), path.dirname(file)).split(path.sep);
      const catchAll = segments.some((segment) => segment.startsWith("[..."));
      const kept = catchAll
        ? segments.slice(
            0,
            segments.findIndex((segment) => segment.startsWith("[...")),
          )
        : segments;
      const routePath = "/" + kept.map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}")).join("/");
      return { file: path.relative(root, file), path: routePath, catchAll, methods: exportedMethods(readFileSync(file, "utf8")) };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** `export function GET`, `export async function POST`, `export const PUT =`, `export { handle as GET, … }`. */
export function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(/export\s+(?:async\s+)?(?:function|const|let)\s+([A-Z]+)\b/g)) found.add(match[1]!);
  for (const block of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const part of block[1]!.split(",")) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) found.add(name);
    }
  }
  return METHODS.filter((method) => found.has(method));
}

function walk(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}
