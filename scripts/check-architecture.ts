/**
 * `npm run check:architecture` (part of `npm test`): the house rules a reviewer would otherwise have
 * to catch by eye, checked on every run.
 *  1. The browser fence: code under components/ imports from lib/ only browser-safe modules (types,
 *     constants, DTOs, URL contracts, server action entry points), never the database, generated
 *     clients, the store, Mastra or the decision engine.
 *  2. lib/ never imports app/ or components/, and its folders import each other without a loop.
 *  3. No source file over 300 lines, but for the few listed below, each waiting to be split.
 *  4. The store package (packages/mastra-store) stands alone: it imports nothing of the console's
 *     (lib/, app/, components/) and nothing of Next.js or React, so a Mastra app can install it.
 */
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";

/** What components/ may import from lib/ (paths without extension). */
const BROWSER_SAFE = [
  /^lib\/actions\//, // server action entry points ("use server") and their result types
  /^lib\/audit\/(dto|args-digest-text)$/, // args-digest-text: pure, what the decision forms take the digest of
  /^lib\/auth\/(roles|client|token-scopes|token-dto)$/, // the list of scopes and the token DTOs, for the token pages
  /^lib\/decisions\/(types|limits|issues|issue-words|json-syntax)$/, // dependency-free wording of input problems (no catalog: issue-english.ts is server-side)
  /^lib\/errors$/,
  /^lib\/events\/types$/,
  /^lib\/http\/limits$/,
  /^lib\/i18n\/(locales|time-zones|client-namespaces)$/, // dependency-free lists of languages, time zones and namespaces
  /^lib\/insights\/(dto|params|period|wait-scale|wait-range|history-links)$/, // pure: the insights' DTO, URL values, periods, wait ranges and history links
  /^lib\/link-problem-words$/, // dependency-free wording of ignored URL parameters (no catalog: its English is server-side)
  /^lib\/list-params$/,
  /^lib\/live\/types$/, // the live stream's change DTO and path
  /^lib\/notifications\/modes$/, // dependency-free list of email choices
  /^lib\/queue\/dto$/,
  /^lib\/runs\/conversation-dto$/,
  /^lib\/rules\/(validations|dto|effect|path|trust-fields)$/, // the rule schema (with re2js), its DTOs, and what "Approve and trust" offers, for the forms
  /^lib\/risk$/, // the risk levels, for badges and the queue's filter
  /^lib\/safe-text$/,
  /^packages\/mastra-store\/src\/run-kinds$/, // dependency-free vocabulary of run shapes and owners
];

/** The workspace's own packages, by name, as the project path of their source. */
const WORKSPACE_PACKAGES: Record<string, string> = { "@agent-approvals/mastra-store": "packages/mastra-store/src" };

/** Files over the line limit today, to be split (issue 11); the list may only shrink. */
const TOO_LONG_FOR_NOW = new Set<string>([]);
const MAX_LINES = 300;

const sources = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" })
  .split("\n")
  .filter(
    (file) => /\.(ts|tsx|mjs)$/.test(file) && !file.includes("/generated/") && !file.includes("/migrations/") && !file.endsWith(".d.mts"),
  );

const problems: string[] = [];
const libEdges = new Map<string, Set<string>>();

for (const file of sources) {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    continue; // deleted in the working tree
  }
  const lines = text.split("\n").length;
  if (lines > MAX_LINES && !TOO_LONG_FOR_NOW.has(file)) problems.push(`${file}: ${lines} lines (at most ${MAX_LINES}); split it`);

  for (const target of importsOf(file, text)) {
    if (file.startsWith("components/") && /^(lib|packages)\//.test(target) && !BROWSER_SAFE.some((rule) => rule.test(target))) {
      problems.push(`${file} imports ${target}: components/ may import only browser-safe modules from lib/ and packages/`);
    }
    if (file.startsWith("packages/mastra-store/") && !target.startsWith("packages/mastra-store/")) {
      problems.push(`${file} imports ${target}: the store package must not depend on the console`);
    }
    if (file.startsWith("lib/") && /^(app|components)\//.test(target))
      problems.push(`${file} imports ${target}: lib/ must not import app/ or components/`);
    const [from, to] = [folderOf(file), folderOf(target)];
    if (from && to && from !== to) (libEdges.get(from) ?? libEdges.set(from, new Set()).get(from)!).add(to);
  }
}

for (const [from, targets] of libEdges) {
  for (const to of targets) {
    const back = pathBetween(to, from);
    if (back) problems.push(`lib/${from} and lib/${to} import each other (lib/${[from, ...back].join(" → lib/")})`);
  }
}

/** Project-relative paths (without extension) of the project's own modules `file` imports. */
function importsOf(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\bfrom\s+["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g)) {
    const specifier = match[1] ?? match[2]!;
    if (file.startsWith("packages/") && /^(next|react|react-dom)(\/|$)|^@\//.test(specifier)) found.push(specifier);
    const workspacePackage = Object.keys(WORKSPACE_PACKAGES).find((name) => specifier === name || specifier.startsWith(`${name}/`));
    if (workspacePackage) {
      const subpath = specifier.slice(workspacePackage.length) || "/index";
      found.push(`${WORKSPACE_PACKAGES[workspacePackage]}${subpath}`);
      continue;
    }
    const resolved = specifier.startsWith("@/")
      ? specifier.slice(2)
      : specifier.startsWith(".")
        ? path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
        : null;
    if (resolved) found.push(resolved.replace(/\.(ts|tsx|mjs|js)$/, ""));
  }
  return found;
}

/** The folder of lib/ a module lives in (`lib/runs/x` → "runs"); undefined for lib/'s own files and the rest. */
function folderOf(module: string): string | undefined {
  const parts = module.split("/");
  return parts[0] === "lib" && parts.length > 2 && parts[1] !== "generated" ? parts[1] : undefined;
}

function pathBetween(from: string, to: string, seen = new Set<string>()): string[] | undefined {
  if (from === to) return [to];
  seen.add(from);
  for (const next of libEdges.get(from) ?? []) {
    if (seen.has(next)) continue;
    const rest = pathBetween(next, to, seen);
    if (rest) return [from, ...rest];
  }
  return undefined;
}

if (problems.length) {
  console.error(
    `Architecture check: ${problems.length} problem(s)\n${[...new Set(problems)].map((problem) => `  - ${problem}`).join("\n")}`,
  );
  process.exit(1);
}
console.log(
  `✓ architecture: ${sources.length} files, browser fence, no lib/ folder loop, none over ${MAX_LINES} lines but ${TOO_LONG_FOR_NOW.size} listed`,
);
