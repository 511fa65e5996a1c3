/**
 * Where JSON text stops being JSON, and why, in words a person reads ("remove the comma before }",
 * line and column), for the resume editor as the reviewer types and the server's refusal alike (its
 * English: issue-english.ts). Browser-safe and dependency-free.
 */
import type { IssueKey, IssueWords } from "./issue-words.ts";

export interface JsonSyntaxLocation {
  /** 1-based line and column (in UTF-16 code units, as editors count). */
  line: number;
  column: number;
  /** What is wrong there, as catalog words. */
  words: IssueWords;
}

/** What the text is, named at the start of the message: "This", "The resume data", "The arguments". */
export type JsonSubject = "subjectThis" | "subjectResumeData" | "subjectArguments";

/**
 * Where JSON text stops being JSON, found by our own scan: Node and Chromium word JSON.parse's
 * errors differently, and neither always says where. Undefined when the text is valid JSON.
 */
export function locateJsonSyntaxError(text: string): JsonSyntaxLocation | undefined {
  const failure = scan(text);
  if (!failure) return undefined;
  const before = text.slice(0, failure.index);
  const line = before.split("\n").length;
  const column = failure.index - (before.lastIndexOf("\n") + 1) + 1;
  return { line, column, words: failure.reason };
}

/** "This is not valid JSON (line 2, column 5): …" as catalog words, or undefined for valid JSON. */
export function jsonSyntaxWords(text: string, subject: JsonSubject = "subjectThis"): IssueWords | undefined {
  if (text.trim() === "") return { key: "jsonEmpty", values: { subject: { key: subject } } };
  const error = locateJsonSyntaxError(text);
  return error
    ? { key: "jsonInvalid", values: { subject: { key: subject }, line: error.line, column: error.column, reason: error.words } }
    : undefined;
}

/** Deeper than any resume data may be (LIMITS.resumeDataDepth); keeps the scan off the stack's edge. */
const MAX_SCAN_DEPTH = 256;

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Stop {
  constructor(
    readonly index: number,
    readonly reason: IssueWords,
  ) {}
}

function scan(text: string): { index: number; reason: IssueWords } | undefined {
  let i = 0;
  const fail = (key: IssueKey, at = i, values?: IssueWords["values"]): never => {
    throw new Stop(at, { key, values });
  };
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const shown = (at: number): string | IssueWords => (at >= text.length ? { key: "endOfText" } : `"${text[at]}"`);
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail("unquoted", i, { found: shown(i) });
  };
  const string = () => {
    const start = i++;
    for (;;) {
      if (i >= text.length) fail("neverClosed", start);
      const char = text.charCodeAt(i);
      if (char === 0x22) return void i++;
      if (char < 0x20) fail("controlCharacter");
      if (char === 0x5c) {
        const next = text[i + 1];
        if (next === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("hexDigits");
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail("badEscape", i, { escape: `"\\${next ?? ""}"` });
      } else i++;
    }
  };
  const number = () => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) fail("notNumber");
    i += match![0].length;
    if (/[0-9.eE]/.test(text[i] ?? "")) fail("notNumber");
  };
  const value = (depth: number): void => {
    ws();
    if (depth > MAX_SCAN_DEPTH) fail("tooDeep");
    const char = text[i];
    if (char === undefined) fail("endsForValue");
    else if (char === "{") container(depth, "}");
    else if (char === "[") container(depth, "]");
    else if (char === '"') string();
    else if (char === "-" || (char >= "0" && char <= "9")) number();
    else if (char === "t") literal("true");
    else if (char === "f") literal("false");
    else if (char === "n") literal("null");
    else if (char === "'") fail("singleQuotes");
    else if (/[A-Za-z_]/.test(char!)) fail("unquoted", i, { found: shown(i) });
    else fail("unexpectedForValue", i, { found: shown(i) });
  };
  const container = (depth: number, close: "}" | "]") => {
    const isObject = close === "}";
    i++;
    ws();
    if (text[i] === close) return void i++;
    for (;;) {
      if (isObject) {
        ws();
        if (text[i] !== '"') fail(text[i] === undefined ? "endsInObject" : "expectedName", i, { close: "}" });
        string();
        ws();
        if (text[i] !== ":") fail("expectedColon");
        i++;
      }
      value(depth + 1);
      ws();
      if (text[i] === ",") {
        const comma = i++;
        ws();
        if (text[i] === close) fail("trailingComma", comma, { close });
        continue;
      }
      if (text[i] === close) return void i++;
      if (text[i] === undefined) fail(isObject ? "endsInObject" : "endsInList", i, { close });
      fail("expectedCommaOr", i, { close, found: shown(i) });
    }
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail("afterEnd", i, { found: shown(i) });
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return { index: error.index, reason: error.reason };
    throw error;
  }
}
