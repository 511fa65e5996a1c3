/**
 * Which catalog namespaces the browser needs under each message provider of app/: every module a
 * "use client" module reaches (through runtime imports, not `import type`) runs in the browser, and
 * its useTranslations namespaces must be among the messages its route's provider picks
 * (lib/i18n/client-namespaces.ts). A server module is followed too: it may render client components;
 * a "use server" module is not, below a client one (the browser gets references to its actions).
 * Over-approximates (a module imported for one export counts whole), never under.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

const read = (file: string) => readFileSync(file, "utf8");

/** Runtime imports of a module: `import … from`, `export … from`, side-effect and dynamic imports. */
function importsOf(source: string): string[] {
  const specs: string[] = [];
  for (const match of source.matchAll(/^\s*(import|export)\s+(type\s+)?[^;'"]*?\bfrom\s*["']([^"']+)["']/gm))
    if (!match[2]) specs.push(match[3]!);
  for (const match of source.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) specs.push(match[1]!);
  for (const match of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) specs.push(match[1]!);
  return specs;
}

/** Our own module an import names (`@/…` or relative), else undefined (a package, JSON, CSS). */
function resolve(from: string, spec: string): string | undefined {
  const base = spec.startsWith("@/")
    ? path.join(ROOT, spec.slice(2))
    : spec.startsWith(".")
      ? path.resolve(path.dirname(from), spec)
      : undefined;
  if (!base) return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")])
    if (/\.(ts|tsx|mts|mjs)$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

const directive = (name: string) => new RegExp(`^(?:\\s*(?://[^\\n]*\\n|/\\*[\\s\\S]*?\\*/))*\\s*["']${name}["']`);
export const isClientModule = (source: string) => directive("use client").test(source);
const isServerModule = (source: string) => directive("use server").test(source);

/**
 * The namespaces a module reads with useTranslations, as dotted paths ("queue.badges"); a template
 * namespace counts as its literal prefix (`history.${group}` is "history"). A translator of the
 * whole catalog (`useTranslations()`) counts the first segment of each dotted key it is called with;
 * a key that does not start with a literal segment is "*", which no provider covers.
 */
export function namespacesOf(source: string): Set<string> {
  const found = new Set<string>();
  for (const match of source.matchAll(/useTranslations\(\s*(?:(["'`])([^"'`]*)\1?)?\s*\)?/g)) {
    if (match[2] === undefined) continue;
    const literal = match[2].split("${")[0]!.replace(/\.$/, "");
    found.add(literal || "*");
  }
  for (const match of source.matchAll(/\b(\w+)\s*=\s*useTranslations\(\s*\)/g)) {
    for (const call of source.matchAll(new RegExp(`\\b${match[1]}(?:\\.(?:rich|markup|raw|has))?\\(\\s*(["'\`])([^"'\`]*)`, "g"))) {
      // A key without a dot is another translator's of the same name (no catalog has top-level messages).
      if (call[2]!.startsWith("${")) found.add("*");
      else if (call[2]!.includes(".")) found.add(call[2]!.split(".")[0]!);
    }
  }
  return found;
}

/** The modules the browser loads for what the given entry modules render: client modules and all they import. */
export function clientModules(entries: string[]): Set<string> {
  const modules = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string, inClient: boolean) => {
    const key = `${inClient}:${file}`;
    if (seen.has(key)) return;
    seen.add(key);
    const source = read(file);
    // The browser gets only references to server actions, not their modules.
    if (inClient && isServerModule(source)) return;
    const client = inClient || isClientModule(source);
    if (client) modules.add(file);
    for (const spec of importsOf(source)) {
      const target = resolve(file, spec);
      if (target) visit(target, client);
    }
  };
  for (const entry of entries) visit(entry, false);
  return modules;
}

/** The namespaces the browser needs for what the given entry modules render. */
export function clientNamespaces(entries: string[]): Set<string> {
  return new Set([...clientModules(entries)].flatMap((file) => [...namespacesOf(read(file))]));
}

/** Whether a module imports a message catalog (messages/*.json) at run time, not only its type. */
export const importsCatalog = (file: string) => importsOf(read(file)).some((spec) => /(^|\/)messages\/[^/]+\.json$/.test(spec));

/** The route key a folder's layout gives its provider (`<ClientMessages route="…">`), if it has one. */
function providerRoute(dir: string): string | undefined {
  const layout = path.join(dir, "layout.tsx");
  return existsSync(layout) ? /<ClientMessages\s+route="([^"]+)"/.exec(read(layout))?.[1] : undefined;
}

/** Each provider's route key and the app/ files rendered under it (pages, layouts, error and not-found). */
export function providerScopes(): Map<string, string[]> {
  const scopes = new Map<string, string[]>();
  const walk = (dir: string, inherited: string | undefined) => {
    const route = providerRoute(dir) ?? inherited;
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== "api") walk(full, route);
      } else if (name.endsWith(".tsx")) {
        if (!route) throw new Error(`${path.relative(ROOT, full)} is under no <ClientMessages route="…">`);
        scopes.set(route, [...(scopes.get(route) ?? []), full]);
      }
    }
  };
  walk(path.join(ROOT, "app"), undefined);
  return scopes;
}

/** Whether a picked path ("admin") covers a namespace the browser reads ("admin.rules"). */
export const covers = (picked: readonly string[], namespace: string) =>
  picked.some((pick) => namespace === pick || namespace.startsWith(`${pick}.`));
