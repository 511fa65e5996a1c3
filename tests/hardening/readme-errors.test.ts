/**
 * The error table of docs/api.md is the contract scripts are written against: it must list exactly
 * the codes lib/errors.ts answers with, at their statuses, and no status the docs name beside a code
 * anywhere else may disagree (the README said `409 wrong_kind` while the server answered 422).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS, type ErrorCode } from "../../lib/errors.ts";
import { consoleDocsText } from "../docs/doc-files.ts";

const apiPage = readFileSync("docs/api.md", "utf8");
const docs = consoleDocsText(process.cwd());
const codes = Object.keys(ERROR_STATUS) as ErrorCode[];

function section(heading: string): string {
  const start = apiPage.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = apiPage.indexOf("\n#", start + heading.length);
  return apiPage.slice(start, end === -1 ? undefined : end);
}

describe("the docs' error codes", () => {
  it("lists every code of lib/errors.ts once, at its status, and nothing else", () => {
    const rows = [...section("## Error codes").matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map(([, code, status]) => [
      code,
      Number(status),
    ]);
    expect(rows.map(([code]) => code)).toEqual([...new Set(rows.map(([code]) => code))]);
    expect(Object.fromEntries(rows)).toEqual(ERROR_STATUS);
  });

  it("names each code, wherever a status stands beside it, with that status", () => {
    const mentions: Array<{ code: string; status: number; text: string }> = [];
    for (const code of codes) {
      // A code is a whole word: `not_found` is not inside `run_not_found`.
      const word = `(?<![a-z_])${code}(?![a-z_])`;
      const before = new RegExp(`\\b([45]\\d\\d)\\s+\`?${word}`, "g");
      const after = new RegExp(`\`${word}\`,?\\s+\\(?([45]\\d\\d)\\b`, "g");
      for (const pattern of [before, after]) {
        for (const match of docs.matchAll(pattern)) mentions.push({ code, status: Number(match[1]), text: match[0] });
      }
    }
    // The prose names statuses beside codes in many places (`422 wrong_kind`, `not_assignee`, 403, …).
    expect(mentions.length).toBeGreaterThanOrEqual(8);
    expect(mentions.filter(({ code, status }) => ERROR_STATUS[code as ErrorCode] !== status)).toEqual([]);
  });
});
