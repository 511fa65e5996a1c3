/**
 * What the docs point at exists: every relative link and anchor resolves, every `npm run X` is a
 * script of the package it is run in, every environment variable the docs name is one the code
 * reads (or a library it uses does), every variable the code reads is in the docs, and every
 * "`NAME` in `path`" names something that file holds. Read from the files, so a rename or a
 * new setting that skips the docs fails here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NUMERIC_SETTINGS } from "../../lib/numeric-settings.mjs";
import { consoleDocs, docFiles, headingAnchors, imagesOf, linksOf, proseOf, sourceFiles, withoutComments } from "./doc-files.ts";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** Named by the docs, read by a library rather than by our code. */
const READ_BY_LIBRARIES: Record<string, string> = {
  OPENAI_API_KEY: "Mastra's model router, for an `openai/…` AGENT_MODEL",
};

/** Named by the docs as a library's own identifiers (its error codes), not variables: each is checked to be in that library. */
const LIBRARY_IDENTIFIERS: Record<string, string> = {
  AGENT_RESUME_TOOL_CALL_NOT_SUSPENDED: "@mastra/core",
  AGENT_RESUME_NO_SNAPSHOT_FOUND: "@mastra/core",
};

/** Read by our code, set by something else for it: not settings anybody chooses, so not documented as such. */
const SET_FOR_US: Record<string, string> = {
  PATH: "the shell",
  VITEST_POOL_ID: "vitest, in each of its workers",
  APPROVALS_REVIEWER: "tests/helpers: a parent test process, for the decision its child makes",
  CPU_PROFILE_DIR: "bench/open-loop.ts, for the servers it profiles",
  NODE_COMPILE_CACHE: "Node's own, set by tests/helpers/child-scripts.ts for the child processes",
};

/** Where the product's code lives (its environment must be documented in the console's docs or the package's README). */
const PRODUCT_CODE = [
  "lib",
  "app",
  "components",
  "scripts",
  "server.mjs",
  "instrumentation.ts",
  "next.config.mjs",
  "prisma.config.ts",
  "packages/mastra-store/src",
  "examples",
];
/** Where the tests and benchmarks live (their environment must be documented somewhere in the docs). */
const TEST_CODE = ["tests", "e2e", "bench", "playwright.config.ts", "vitest.config.ts", ".ci/run"];

/** What a checked-in screenshot may weigh: a page of the docs shows several. */
const MAX_IMAGE_BYTES = 200 * 1024;

const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/** The variables a file reads: `process.env.X`, `process.env["X"]`, `{ X } = process.env`, `env.X`, and the keys of a zod schema parsed from the environment. */
function variablesReadBy(text: string): string[] {
  const code = withoutComments(text);
  const names = new Set<string>();
  for (const match of code.matchAll(/\b(?:process\.)?env(?:\.([A-Z][A-Z0-9_]*)|\[\s*["'`]([A-Z][A-Z0-9_]*)["'`]\s*\])/g))
    names.add((match[1] ?? match[2])!);
  for (const match of code.matchAll(/\{([^{}]*)\}\s*=\s*process\.env\b/g)) {
    for (const name of match[1]!.split(",").map((part) => part.split(":")[0]!.trim())) if (/^[A-Z][A-Z0-9_]*$/.test(name)) names.add(name);
  }
  if (/process\.env/.test(code)) for (const match of code.matchAll(/^\s+([A-Z][A-Z0-9]*_[A-Z0-9_]+):\s*z\b/gm)) names.add(match[1]!);
  for (const match of code.matchAll(/\bnumericSetting\(\s*"([A-Z][A-Z0-9_]*)"/g)) names.add(match[1]!);
  // Shell: ${NAME:-…}, $NAME, NAME=… at a command's start.
  if (/^#!.*\b(?:ba)?sh\b/.test(text)) {
    const assigned = new Set([...code.matchAll(/^\s*(?:local\s+|export\s+)?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
    for (const match of code.matchAll(/\$\{?([A-Z][A-Z0-9]*_[A-Z0-9_]+)/g)) if (!assigned.has(match[1]!)) names.add(match[1]!);
  }
  return [...names].filter((name) => name !== "NODE_ENV" && name !== "NEXT_RUNTIME" && !SET_FOR_US[name]);
}

function variablesReadIn(places: string[]): Map<string, string> {
  const readers = new Map<string, string>();
  for (const file of sourceFiles(root, places))
    for (const name of variablesReadBy(read(file))) if (!readers.has(name)) readers.set(name, file);
  for (const name of Object.keys(NUMERIC_SETTINGS)) readers.set(name, "lib/numeric-settings.mjs");
  return readers;
}

/** Every `NAME` in backticks, NAME=… and $NAME the docs (code blocks included) name that could be a variable. */
function variablesNamedIn(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const match of markdown.matchAll(/`([A-Z][A-Z0-9_]*[A-Z0-9])(?:=[^`]*)?`|(?:^|[\s(])([A-Z][A-Z0-9_]*[A-Z0-9])=/gm)) {
    names.add((match[1] ?? match[2])!);
  }
  for (const match of markdown.matchAll(/\$\{?([A-Z][A-Z0-9_]*[A-Z0-9])\b/g)) names.add(match[1]!);
  return names;
}

/** "`NAME` in `path`": a constant the docs locate in a file. */
function locatedConstants(markdown: string): Array<{ name: string; file: string }> {
  return [...markdown.matchAll(/`([A-Za-z_][\w.]*)`\s+in\s+`([\w./-]+\.(?:ts|tsx|mjs|js|json|prisma|css))`/g)].map((match) => ({
    name: match[1]!,
    file: match[2]!,
  }));
}

describe("what the docs point at", () => {
  const docs = docFiles(root);

  it("finds the docs it checks", () => {
    expect(docs).toEqual(expect.arrayContaining(["README.md", "packages/mastra-store/README.md", "e2e/README.md", "bench/README.md"]));
  });

  it("every relative link and anchor resolves", () => {
    const broken: string[] = [];
    for (const doc of docs) {
      for (const { target, line } of linksOf(read(doc))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [file, anchor] = target.split("#") as [string, string | undefined];
        const resolved = file ? path.join(path.dirname(doc), decodeURIComponent(file)) : doc;
        if (!existsSync(path.join(root, resolved))) {
          broken.push(`${doc}:${line}: ${target} (no file ${resolved})`);
          continue;
        }
        if (anchor && resolved.endsWith(".md") && !headingAnchors(read(resolved)).has(decodeURIComponent(anchor).toLowerCase())) {
          broken.push(`${doc}:${line}: ${target} (no heading #${anchor} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("every `npm run X` is a script of the package it runs in", () => {
    const scriptsOf = (dir: string) =>
      Object.keys((JSON.parse(read(path.join(dir, "package.json"))) as { scripts?: object }).scripts ?? {});
    const missing: string[] = [];
    for (const doc of docs) {
      // The package's README is read by teams adopting it: its commands run in the package or in the adopter's project.
      // The package's README also walks through this repository's own commands (deciding from the console).
      const dirs = doc.startsWith("packages/") ? [path.dirname(doc), "."] : ["."];
      const scripts = new Set(dirs.flatMap(scriptsOf));
      for (const match of read(doc).matchAll(/npm run ([a-z][\w:-]*)/g)) {
        if (!scripts.has(match[1]!))
          missing.push(`${doc}: npm run ${match[1]} (not in ${dirs.map((dir) => path.join(dir, "package.json")).join(" or ")})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("every environment variable the docs name is read by the code, or by a library it uses", () => {
    const readers = new Map([...variablesReadIn(PRODUCT_CODE), ...variablesReadIn(TEST_CODE)]);
    const located = new Set(docs.flatMap((doc) => locatedConstants(proseOf(read(doc))).map(({ name }) => name)));
    const unread: string[] = [];
    for (const doc of docs) {
      for (const name of variablesNamedIn(read(doc))) {
        if (readers.has(name) || READ_BY_LIBRARIES[name] || LIBRARY_IDENTIFIERS[name] || located.has(name) || !ENV_NAME.test(name))
          continue;
        unread.push(`${doc}: ${name}`);
      }
    }
    expect(unread).toEqual([]);
    // The lists above are no hiding place: none of them is read by our own code, and each identifier is in its library.
    expect(Object.keys({ ...READ_BY_LIBRARIES, ...LIBRARY_IDENTIFIERS }).filter((name) => readers.has(name))).toEqual([]);
    for (const [name, library] of Object.entries(LIBRARY_IDENTIFIERS)) {
      const dist = path.join(root, "node_modules", library, "dist");
      const holds = sourceFiles(dist, ["."]).some(
        (file) => file.endsWith(".js") && readFileSync(path.join(dist, file), "utf8").includes(name),
      );
      expect(holds, `${name} in ${library}`).toBe(true);
    }
  });

  it("every environment variable the product reads is in the console's docs or the package's README; the tests' in any doc", () => {
    const named = (docsToRead: string[]) => new Set(docsToRead.flatMap((doc) => [...variablesNamedIn(read(doc))]));
    const productDocs = named([...consoleDocs(root), "packages/mastra-store/README.md"]);
    const allDocs = named(docs);
    const undocumented = [
      ...[...variablesReadIn(PRODUCT_CODE)].filter(([name]) => !productDocs.has(name)).map(([name, file]) => `${name} (read in ${file})`),
      ...[...variablesReadIn(TEST_CODE)].filter(([name]) => !allDocs.has(name)).map(([name, file]) => `${name} (read in ${file})`),
    ];
    expect(undocumented).toEqual([]);
  });

  it('every "`NAME` in `path`" names something that file holds', () => {
    const wrong: string[] = [];
    for (const doc of docs) {
      for (const { name, file } of locatedConstants(proseOf(read(doc)))) {
        // A path from the doc's own folder (e2e/README.md names `support/queue-page.ts`), else from the project's.
        const besideDoc = path.join(root, path.dirname(doc), file);
        const full = existsSync(besideDoc) ? besideDoc : path.join(root, file);
        if (!existsSync(full) || !statSync(full).isFile()) wrong.push(`${doc}: ${name} in ${file} (no such file)`);
        else if (!readFileSync(full, "utf8").includes(name.split(".")[0]!)) wrong.push(`${doc}: ${name} in ${file} (not in that file)`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("every image a doc shows is in docs/images, under 200 KB, and every image there is shown", () => {
    const shown = new Set<string>();
    const wrong: string[] = [];
    for (const doc of docs) {
      for (const { target, line } of imagesOf(read(doc))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
          wrong.push(`${doc}:${line}: ${target} (an image from elsewhere: keep it in docs/images)`);
          continue;
        }
        const image = path.posix.join(path.posix.dirname(doc), decodeURIComponent(target));
        shown.add(image);
        if (!existsSync(path.join(root, image))) wrong.push(`${doc}:${line}: ${target} (no file ${image})`);
        else if (statSync(path.join(root, image)).size > MAX_IMAGE_BYTES)
          wrong.push(
            `${doc}:${line}: ${image} is ${statSync(path.join(root, image)).size} bytes (npm run docs:screenshots keeps them small)`,
          );
      }
    }
    const kept = readdirSync(path.join(root, "docs/images")).map((file) => `docs/images/${file}`);
    wrong.push(...kept.filter((image) => !shown.has(image)).map((image) => `${image} is shown by no doc`));
    expect(wrong).toEqual([]);
  });

  it("README.md stays a front door (under 150 lines), CONTRIBUTING.md and every page under docs/ short (under 300)", () => {
    const long = consoleDocs(root)
      .map((doc) => ({ doc, lines: read(doc).split("\n").length - 1, limit: doc === "README.md" ? 150 : 300 }))
      .filter(({ lines, limit }) => lines >= limit)
      .map(({ doc, lines, limit }) => `${doc}: ${lines} lines (under ${limit})`);
    expect(long).toEqual([]);
  });
});
