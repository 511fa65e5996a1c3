/**
 * The console's words for what is wrong with a decision's input (lib/decisions/issues.ts), shared by
 * the resume editor and the server's refusals: real zod issues in, sentences a person would say out.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { findJsonSyntaxError, humanizeIssues, jsonSyntaxMessage } from "../../lib/decisions/issue-english.ts";
import { sayIssue } from "../../lib/decisions/issue-words.ts";
import { jsonSyntaxWords } from "../../lib/decisions/json-syntax.ts";
import { translatorFor } from "../../lib/i18n/catalogs.ts";

const schema = z
  .object({
    addressId: z.string(),
    amount: z.number().positive(),
    count: z.int().min(2),
    note: z.string().min(1).max(5).optional(),
    kind: z.enum(["home", "work"]),
    tags: z.array(z.string()).max(1).optional(),
    contact: z.object({ email: z.email() }).optional(),
  })
  .strict();

function messagesFor(value: unknown, validator: z.ZodType = schema): string[] {
  const result = validator.safeParse(value);
  if (result.success) return [];
  return humanizeIssues(result.error.issues).map((issue) => issue.message);
}

describe("humanizeIssues", () => {
  it("names missing fields, bounds, options and unknown fields in words", () => {
    expect(
      messagesFor({
        amount: 0,
        count: 1,
        note: "too long",
        kind: "office",
        tags: ["a", "b"],
        contact: { email: "nope" },
        foo: 1,
        bar: 2,
      }),
    ).toEqual([
      "addressId is required",
      "amount must be more than 0",
      "count must be at least 2",
      "note must be at most 5 characters long",
      'kind must be one of "home", "work"',
      "tags must have at most 1 items",
      "contact.email must be a valid email",
      "unknown field: foo",
      "unknown field: bar",
    ]);
  });

  it("says what type was expected and what came instead, and treats null as missing", () => {
    expect(messagesFor({ addressId: 42, amount: null, count: 2.5, note: "", kind: "home" })).toEqual([
      "addressId must be a string (text in double quotes), not a number",
      "amount is required",
      "count must be a whole number, not a number",
      "note must not be empty",
    ]);
    expect(messagesFor("text")).toEqual(["the value must be an object ({ … }), not a string"]);
  });

  it("keeps a message the schema wrote itself, and reads Standard Schema issues with object path parts", async () => {
    expect(messagesFor("", z.string().min(1, "reason must not be empty"))).toEqual(["reason must not be empty"]);
    const result = await z.object({ items: z.array(z.object({ id: z.string() })) })["~standard"].validate({ items: [{ id: 1 }] });
    expect(humanizeIssues(result.issues ?? [])).toMatchObject([
      { path: "items[0].id", message: "items[0].id must be a string (text in double quotes), not a number" },
    ]);
    expect(humanizeIssues([{ message: "Invalid input", path: [{ key: "a" }], code: "custom" }])).toMatchObject([
      { path: "a", message: "a: Invalid input" },
    ]);
    // A schema's own message has no catalog words: it is shown as its author wrote it, in every language.
    expect(humanizeIssues([{ message: "reason must not be empty", path: ["reason"], code: "too_small" }])).toEqual([
      { path: "reason", message: "reason must not be empty" },
    ]);
  });

  it("reads zod's unconverted JSON Schema validators the same way (what the browser uses)", () => {
    const fromJson = z.fromJSONSchema(z.toJSONSchema(schema) as never);
    expect(messagesFor({ amount: -1, kind: "home", count: 2, extra: true }, fromJson)).toEqual([
      "addressId is required",
      "amount must be more than 0",
      "unknown field: extra",
    ]);
  });
});

describe("JSON syntax errors", () => {
  it.each([
    ['{"addressId": ', 1, 15, "the text ends where a value was expected"],
    ['{\n  "addressId": foo\n}', 2, 16, 'unexpected "f"; text values need double quotes'],
    ['{"a": }', 1, 7, 'unexpected "}" where a value was expected'],
    ['{\n  "a": 1,\n}', 2, 9, "remove the comma before }"],
    ["{'a': 1}", 1, 2, "expected a field name in double quotes"],
    ['{"a" 1}', 1, 6, 'expected ":" after the field name'],
    ["[1 2]", 1, 4, 'expected "," or "]" but found "2"'],
    ['"abc', 1, 1, "this text value is never closed with a double quote"],
    ['{"a": "x\ny"}', 1, 9, "a line break or control character inside a text value (write \\n instead)"],
    ['{"a": 01}', 1, 8, "this is not a valid number"],
    ['{"a": 1} x', 1, 10, 'unexpected "x" after the end of the JSON value'],
    ['{"a": tru}', 1, 7, 'unexpected "t"; text values need double quotes'],
    ['{"a": "\\x"}', 1, 8, '"\\x" is not a valid escape'],
  ])("%j fails at line %i, column %i", (text, line, column, reason) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonSyntaxError(text)).toMatchObject({ line, column, reason });
    expect(jsonSyntaxMessage(text)).toBe(`This is not valid JSON (line ${line}, column ${column}): ${reason}`);
  });

  it("finds nothing wrong in valid JSON, and says when the text is empty", () => {
    for (const text of ['{"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"], "b": {}}', "[]", " 0 ", '"x"']) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(findJsonSyntaxError(text)).toBeUndefined();
      expect(jsonSyntaxMessage(text)).toBeUndefined();
    }
    expect(jsonSyntaxMessage("  \n", "subjectResumeData")).toBe("The resume data is empty: write a JSON value");
  });

  it("survives hostile nesting without overflowing the stack", () => {
    expect(findJsonSyntaxError("[".repeat(100_000))).toMatchObject({ line: 1, reason: "the value is nested too deeply" });
  });
});

describe("in the reader's language", () => {
  const inLanguage = (locale: "ko" | "zh-TW") => {
    const { t } = translatorFor(locale);
    return (key: string, values: Record<string, string | number>) => t(`runDetail.issues.${key}` as never, values as never);
  };

  it("words the same issues in Korean and Chinese, with the field and the values as they are", () => {
    const result = schema.safeParse({ addressId: 42, amount: 0, count: 2, kind: "office", extra: 1 });
    const issues = humanizeIssues(result.error!.issues);
    expect(issues.map((issue) => sayIssue(issue.words!, inLanguage("ko")))).toEqual([
      "addressId은(는) 문자열(큰따옴표로 감싼 텍스트)여야 합니다(입력된 값: 숫자)",
      "amount은(는) 0보다 커야 합니다",
      'kind은(는) 다음 중 하나여야 합니다: "home", "work"',
      "알 수 없는 필드: extra",
    ]);
    expect(issues.map((issue) => sayIssue(issue.words!, inLanguage("zh-TW")))[1]).toBe("amount 必須大於 0");
  });

  it("words a JSON syntax error with its line and column", () => {
    const words = jsonSyntaxWords('{\n  "a": 1,\n}', "subjectResumeData")!;
    expect(sayIssue(words, inLanguage("zh-TW"))).toBe("繼續執行資料不是有效的 JSON（第 2 行，第 9 欄）：請移除 } 前的逗號");
    expect(sayIssue(words, inLanguage("ko"))).toBe("재개 데이터: 올바른 JSON이 아닙니다(2행 9열). } 앞의 쉼표를 지우세요");
  });
});
