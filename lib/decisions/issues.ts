/**
 * How the console words what is wrong with a decision's input, for people: "addressId is required",
 * "amount must be more than 0", "unknown field: foo" (JSON syntax: json-syntax.ts).
 * One module for the browser (the resume editor checks as the reviewer types) and the server (its
 * refusals), so both say the same thing, in the reader's language (issue-words.ts); the server adds
 * the English sentence (issue-english.ts). Browser-safe and dependency-free: it reads zod's issue
 * objects (or any Standard Schema issue) by shape, never imports zod.
 */
import type { IssueKey, IssueWords } from "./issue-words.ts";

/** An issue as zod (or any Standard Schema validator) reports it; every field but message optional. */
export interface IssueLike {
  message: string;
  code?: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | string;
  expected?: unknown;
  origin?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  inclusive?: unknown;
  keys?: unknown;
  values?: unknown;
  format?: unknown;
  divisor?: unknown;
  pattern?: unknown;
}

export interface HumanIssue {
  /** Where, as a dotted path (`items[0].name`); "" for the value itself. */
  path: string;
  /** A whole sentence naming the field, in English (the JSON API's message). */
  message: string;
  /** The same as catalog words, for a reader of another language; none for a message a schema wrote itself. */
  words?: IssueWords;
}

/** An issue as catalog words, or as the schema's author wrote it: what the browser shows, in the reader's language. */
export type WordedIssue = { path: string; words: IssueWords; message?: undefined } | { path: string; message: string; words?: undefined };

/** zod's own default wording ("Invalid input: …", "Too small: …"); a message a schema wrote itself is kept. */
const ZOD_DEFAULT = /^(Invalid\b|Too (small|big)\b|Unrecognized keys?\b)/;

function pathText(path: IssueLike["path"]): string {
  if (path === undefined) return "";
  if (typeof path === "string") return path;
  let out = "";
  for (const raw of path) {
    const part = typeof raw === "object" && raw !== null ? raw.key : raw;
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** JSON's type names as words; a hint in notation after some, for the expected type only. */
const TYPE_WORDS: Record<string, IssueKey> = {
  string: "typeString",
  number: "typeNumber",
  int: "typeWholeNumber",
  integer: "typeWholeNumber",
  boolean: "typeBoolean",
  object: "typeObject",
  array: "typeList",
  bigint: "typeWholeNumber",
  date: "typeDate",
};
const TYPE_HINTS: Record<string, string | IssueWords> = { string: { key: "hintString" }, object: "({ … })", array: "([ … ])" };

/** "a string (text in double quotes)" for what was expected; "a string" for what came (`withHint` false). */
function typeWords(type: unknown, withHint: boolean): string | IssueWords {
  if (typeof type !== "string") return { key: "typeOther" };
  if (type === "null" || type === "NaN") return type;
  const key = TYPE_WORDS[type];
  if (!key) return type;
  const hint = TYPE_HINTS[type];
  return withHint && hint ? { key: "typeWithHint", values: { type: { key }, hint } } : { key };
}

function received(message: string): string | undefined {
  return /received (\w+)/.exec(message)?.[1];
}

function list(values: unknown): string {
  return Array.isArray(values)
    ? values
        .slice(0, 20)
        .map((value) => JSON.stringify(value) ?? String(value))
        .join(", ")
    : "";
}

function bound(issue: IssueLike, subject: string | IssueWords, small: boolean): IssueWords | undefined {
  const limit = small ? issue.minimum : issue.maximum;
  if (typeof limit !== "number" && typeof limit !== "bigint") return undefined;
  const inclusive = issue.inclusive !== false;
  const values = { subject, limit: String(limit) };
  switch (issue.origin) {
    case "number":
    case "int":
    case "bigint":
      return { key: small ? (inclusive ? "atLeast" : "moreThan") : inclusive ? "atMost" : "lessThan", values };
    case "string":
      if (small && Number(limit) === 1) return { key: "notEmpty", values };
      return { key: small ? "charactersAtLeast" : "charactersAtMost", values };
    case "array":
    case "set":
      if (small && Number(limit) === 1) return { key: "oneItem", values };
      return { key: small ? "itemsAtLeast" : "itemsAtMost", values };
    default:
      return undefined;
  }
}

/** Every issue in words; an unrecognized-keys issue becomes one "unknown field" per key. */
export function issuesInWords(issues: ReadonlyArray<IssueLike>): WordedIssue[] {
  return issues.flatMap((issue): WordedIssue[] => {
    const path = pathText(issue.path);
    if (issue.code === "unrecognized_keys" && Array.isArray(issue.keys) && ZOD_DEFAULT.test(issue.message)) {
      return issue.keys.map((key) => {
        const field = path ? `${path}.${String(key)}` : String(key);
        const words: IssueWords = { key: "unknownField", values: { field } };
        return { path: field, words };
      });
    }
    // A message the schema wrote itself, in its author's words, is shown as written.
    if (!ZOD_DEFAULT.test(issue.message)) return [{ path, message: issue.message }];
    return [{ path, words: issueWords(issue, path) }];
  });
}

function issueWords(issue: IssueLike, path: string): IssueWords {
  const subject: string | IssueWords = path || { key: "theValue" };
  switch (issue.code) {
    case "invalid_type": {
      const got = received(issue.message);
      if (got === "undefined" || got === "null") return path ? { key: "required", values: { path } } : { key: "valueRequired" };
      const expected = typeWords(issue.expected, true);
      return got
        ? { key: "mustBeNot", values: { subject, expected, got: typeWords(got, false) } }
        : { key: "mustBe", values: { subject, expected } };
    }
    case "too_small":
      return bound(issue, subject, true) ?? { key: "tooSmall", values: { subject } };
    case "too_big":
      return bound(issue, subject, false) ?? { key: "tooBig", values: { subject } };
    case "invalid_value":
      return {
        key: Array.isArray(issue.values) && issue.values.length === 1 ? "mustBe" : "oneOf",
        values: { subject, expected: list(issue.values) },
      };
    case "invalid_format":
      if (issue.format === "regex" && typeof issue.pattern === "string")
        return { key: "pattern", values: { subject, pattern: issue.pattern } };
      return typeof issue.format === "string"
        ? { key: "validFormat", values: { subject, format: issue.format } }
        : { key: "validValue", values: { subject } };
    case "not_multiple_of":
      return { key: "multipleOf", values: { subject, divisor: String(issue.divisor) } };
    case "invalid_union":
      return { key: "noForm", values: { subject } };
    case "invalid_key":
      return { key: "badKey", values: { subject } };
    case "invalid_element":
      return { key: "badEntry", values: { subject } };
    default:
      // zod's own English for a case not worded here: named by its field, as zod says it.
      return { key: "asZodSays", values: { path: path ? `${path}: ` : "", message: issue.message } };
  }
}

/** The issues as one sentence list, for a refusal's message. */
export function issuesSentence(issues: ReadonlyArray<HumanIssue>): string {
  return issues.map((issue) => issue.message).join("; ");
}
