/**
 * Reading the docs as a checker needs them (tests/docs/doc-references.test.ts): which files are
 * docs, their links outside code, their headings' anchors as GitHub makes them, and source files
 * with their comments left out (a comment naming a variable does not read it).
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SKIPPED_FOLDERS = new Set([
  "node_modules",
  ".next",
  ".git",
  "generated",
  "dist",
  ".compiled",
  "test-results",
  "playwright-report",
  ".data",
]);

/** Every Markdown file the project keeps for readers: the READMEs, CONTRIBUTING.md and docs/. */
export function docFiles(root: string): string[] {
  return walk(
    root,
    ".",
    (file) => /(^|\/)(README|CONTRIBUTING)\.md$/.test(file) || (file.startsWith("docs/") && file.endsWith(".md")),
  ).sort();
}

/** The console's own docs (not the package's, the tests' or the benchmarks'): README.md, CONTRIBUTING.md and docs/. */
export function consoleDocs(root: string): string[] {
  return docFiles(root).filter((file) => file === "README.md" || file === "CONTRIBUTING.md" || file.startsWith("docs/"));
}

/** The console's docs as one text, for a check that a fact is stated somewhere in them. */
export function consoleDocsText(root: string): string {
  return consoleDocs(root)
    .map((file) => readFileSync(path.join(root, file), "utf8"))
    .join("\n\n");
}

/** The source files under `places` (folders or files), relative to `root`. */
export function sourceFiles(root: string, places: string[]): string[] {
  return places.flatMap((place) => {
    const full = path.join(root, place);
    let stats;
    try {
      stats = statSync(full);
    } catch {
      return [];
    }
    return stats.isFile()
      ? [place]
      : walk(root, place, (file) => /\.(ts|tsx|mts|mjs|js|cjs)$/.test(file) && !file.endsWith(".d.ts") && !file.endsWith(".d.mts"));
  });
}

function walk(root: string, dir: string, keep: (file: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const file = path.posix.join(dir, entry.name).replace(/^\.\//, "");
    if (entry.isDirectory()) found.push(...walk(root, file, keep));
    else if (keep(file)) found.push(file);
  }
  return found;
}

/** The Markdown with its fenced code blocks (and, unless kept, inline code) blanked out, lines kept in place. */
export function proseOf(markdown: string, { keepInlineCode = true } = {}): string {
  let fence: string | null = null;
  const lines = markdown.split("\n").map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && opening) fence = opening;
    else if (fence !== null && opening?.startsWith(fence)) fence = null;
    else if (fence === null) return keepInlineCode ? line : line.replace(/`[^`]*`/g, (code) => " ".repeat(code.length));
    return " ".repeat(line.length);
  });
  return lines.join("\n");
}

/** Every link target outside code, with its line. */
export function linksOf(markdown: string): Array<{ target: string; line: number }> {
  const prose = proseOf(markdown, { keepInlineCode: false });
  const links: Array<{ target: string; line: number }> = [];
  for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)/gm)) {
    links.push({ target: (match[1] ?? match[2])!, line: prose.slice(0, match.index).split("\n").length });
  }
  return links;
}

/** Every image a doc shows outside code: Markdown's `![alt](path)` and HTML's `<img src="path">`, with its line. */
export function imagesOf(markdown: string): Array<{ target: string; line: number }> {
  const prose = proseOf(markdown, { keepInlineCode: false });
  const images: Array<{ target: string; line: number }> = [];
  for (const match of prose.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|<img\s[^>]*?src="([^"]+)"/g)) {
    images.push({ target: (match[1] ?? match[2])!, line: prose.slice(0, match.index).split("\n").length });
  }
  return images;
}

/** The anchors GitHub gives a file's headings (lowercased, punctuation dropped, spaces to hyphens, repeats numbered), and explicit `<a id>`/`<a name>`. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of proseOf(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = match[1]!
      .toLowerCase()
      .replace(/<[^>]+>/g, "")
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!.toLowerCase());
  return anchors;
}

/** Source text with its comments blanked out (strings kept; good enough for the names we look for). */
export function withoutComments(text: string): string {
  return text.replace(
    /("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*|^\s*#(?!!)[^\n]*/gm,
    (all, literal: string | undefined) => literal ?? all.replace(/[^\n]/g, " "),
  );
}
