/**
 * How the console words what is wrong with a decision's input, for people: "addressId is required",
 * "amount must be more than 0", "unknown field: foo", "This is not valid JSON (line 2, column 5)".
 * One module for the browser (the resume editor checks as the reviewer types) and the server (its
 * refusals), so both say the same thing. Browser-safe and dependency-free: it reads zod's issue
 * objects (or any Standard Schema issue) by shape, never imports zod.
 */

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
  /** A whole sentence naming the field: show it as it is. */
  message: string;
}

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

const TYPE_NAMES: Record<string, string> = {
  string: "a string (text in double quotes)",
  number: "a number",
  int: "a whole number",
  integer: "a whole number",
  boolean: "true or false",
  object: "an object ({ … })",
  array: "a list ([ … ])",
  null: "null",
  bigint: "a whole number",
  date: "a date",
};

function typeName(type: unknown): string {
  return typeof type === "string" ? (TYPE_NAMES[type] ?? type) : "another kind of value";
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

function bound(issue: IssueLike, subject: string, small: boolean): string | undefined {
  const limit = small ? issue.minimum : issue.maximum;
  if (typeof limit !== "number" && typeof limit !== "bigint") return undefined;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case "number":
    case "int":
    case "bigint":
      return small
        ? `${subject} must be ${inclusive ? "at least" : "more than"} ${limit}`
        : `${subject} must be ${inclusive ? "at most" : "less than"} ${limit}`;
    case "string":
      if (small && Number(limit) === 1) return `${subject} must not be empty`;
      return `${subject} must be ${small ? "at least" : "at most"} ${limit} characters long`;
    case "array":
    case "set":
      if (small && Number(limit) === 1) return `${subject} must have at least one item`;
      return `${subject} must have ${small ? "at least" : "at most"} ${limit} items`;
    default:
      return undefined;
  }
}

/** Every issue in words; an unrecognized-keys issue becomes one "unknown field" per key. */
export function humanizeIssues(issues: ReadonlyArray<IssueLike>): HumanIssue[] {
  return issues.flatMap((issue) => {
    const path = pathText(issue.path);
    if (issue.code === "unrecognized_keys" && Array.isArray(issue.keys) && ZOD_DEFAULT.test(issue.message)) {
      return issue.keys.map((key) => {
        const field = path ? `${path}.${String(key)}` : String(key);
        return { path: field, message: `unknown field: ${field}` };
      });
    }
    return [{ path, message: humanizeIssue(issue, path) }];
  });
}

function humanizeIssue(issue: IssueLike, path: string): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  const subject = path || "the value";
  switch (issue.code) {
    case "invalid_type": {
      const got = received(issue.message);
      if (got === "undefined" || got === "null") return path ? `${path} is required` : `a value is required`;
      return `${subject} must be ${typeName(issue.expected)}${got ? `, not ${got === "NaN" ? "NaN" : typeName(got).replace(/ \(.*\)$/, "")}` : ""}`;
    }
    case "too_small":
      return bound(issue, subject, true) ?? `${subject} is too small`;
    case "too_big":
      return bound(issue, subject, false) ?? `${subject} is too big`;
    case "invalid_value":
      return Array.isArray(issue.values) && issue.values.length === 1
        ? `${subject} must be ${list(issue.values)}`
        : `${subject} must be one of ${list(issue.values)}`;
    case "invalid_format":
      return issue.format === "regex" && typeof issue.pattern === "string"
        ? `${subject} must match the pattern ${issue.pattern}`
        : `${subject} must be a valid ${typeof issue.format === "string" ? issue.format : "value"}`;
    case "not_multiple_of":
      return `${subject} must be a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
      return `${subject} does not match any of the accepted forms`;
    case "invalid_key":
      return `${subject} has a key that is not accepted`;
    case "invalid_element":
      return `${subject} has an entry that is not accepted`;
    default:
      return path ? `${path}: ${issue.message}` : issue.message;
  }
}

/** The issues as one sentence list, for a refusal's message. */
export function issuesSentence(issues: ReadonlyArray<HumanIssue>): string {
  return issues.map((issue) => issue.message).join("; ");
}

export interface JsonSyntaxError {
  /** 1-based line and column (in UTF-16 code units, as editors count). */
  line: number;
  column: number;
  reason: string;
}

/**
 * Where JSON text stops being JSON, found by our own scan: Node and Chromium word JSON.parse's
 * errors differently, and neither always says where. Undefined when the text is valid JSON.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const failure = scan(text);
  if (!failure) return undefined;
  const before = text.slice(0, failure.index);
  const line = before.split("\n").length;
  const column = failure.index - (before.lastIndexOf("\n") + 1) + 1;
  return { line, column, reason: failure.reason };
}

/** "This is not valid JSON (line 2, column 5): …", or undefined for valid JSON. */
export function jsonSyntaxMessage(text: string, subject = "This"): string | undefined {
  if (text.trim() === "") return `${subject} is empty: write a JSON value`;
  const error = findJsonSyntaxError(text);
  return error ? `${subject} is not valid JSON (line ${error.line}, column ${error.column}): ${error.reason}` : undefined;
}

/** Deeper than any resume data may be (LIMITS.resumeDataDepth); keeps the scan off the stack's edge. */
const MAX_SCAN_DEPTH = 256;

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Stop {
  constructor(
    readonly index: number,
    readonly reason: string,
  ) {}
}

function scan(text: string): { index: number; reason: string } | undefined {
  let i = 0;
  const fail = (reason: string, at = i): never => {
    throw new Stop(at, reason);
  };
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const shown = (at: number) => (at >= text.length ? "the end of the text" : `"${text[at]}"`);
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${shown(i)}; text values need double quotes`);
  };
  const string = () => {
    const start = i++;
    for (;;) {
      if (i >= text.length) fail("this text value is never closed with a double quote", start);
      const char = text.charCodeAt(i);
      if (char === 0x22) return void i++;
      if (char < 0x20) fail("a line break or control character inside a text value (write \\n instead)");
      if (char === 0x5c) {
        const next = text[i + 1];
        if (next === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("\\u must be followed by four hex digits");
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail(`"\\${next ?? ""}" is not a valid escape`);
      } else i++;
    }
  };
  const number = () => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) fail("this is not a valid number");
    i += match![0].length;
    if (/[0-9.eE]/.test(text[i] ?? "")) fail("this is not a valid number");
  };
  const value = (depth: number): void => {
    ws();
    if (depth > MAX_SCAN_DEPTH) fail("the value is nested too deeply");
    const char = text[i];
    if (char === undefined) fail("the text ends where a value was expected");
    else if (char === "{") container(depth, "}");
    else if (char === "[") container(depth, "]");
    else if (char === '"') string();
    else if (char === "-" || (char >= "0" && char <= "9")) number();
    else if (char === "t") literal("true");
    else if (char === "f") literal("false");
    else if (char === "n") literal("null");
    else if (char === "'") fail("text values need double quotes, not single quotes");
    else if (/[A-Za-z_]/.test(char!)) fail(`unexpected ${shown(i)}; text values need double quotes`);
    else fail(`unexpected ${shown(i)} where a value was expected`);
  };
  const container = (depth: number, close: "}" | "]") => {
    const isObject = close === "}";
    i++;
    ws();
    if (text[i] === close) return void i++;
    for (;;) {
      if (isObject) {
        ws();
        if (text[i] !== '"')
          fail(text[i] === undefined ? "the text ends before the object is closed with }" : "expected a field name in double quotes");
        string();
        ws();
        if (text[i] !== ":") fail(`expected ":" after the field name`);
        i++;
      }
      value(depth + 1);
      ws();
      if (text[i] === ",") {
        const comma = i++;
        ws();
        if (text[i] === close) fail(`remove the comma before ${close}`, comma);
        continue;
      }
      if (text[i] === close) return void i++;
      if (text[i] === undefined) fail(`the text ends before the ${isObject ? "object" : "list"} is closed with ${close}`);
      fail(`expected "," or "${close}" but found ${shown(i)}`);
    }
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail(`unexpected ${shown(i)} after the end of the JSON value`);
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return { index: error.index, reason: error.reason };
    throw error;
  }
}
