/**
 * Input problems in English: the JSON API's messages and the server's refusals, filled in from the
 * English catalog. Kept apart from the words (issue-words.ts, issues.ts, json-syntax.ts) so that the
 * browser, which says them in the reader's language, does not load the English catalog.
 * The catalog's issue messages use plain {name} arguments only: filling them in needs no ICU library.
 */
import en from "../../messages/en.json" with { type: "json" };
import { issuesInWords, type HumanIssue, type IssueLike } from "./issues.ts";
import { sayIssue, type IssueWords, type SayIssue } from "./issue-words.ts";
import { jsonSyntaxWords, locateJsonSyntaxError, type JsonSubject, type JsonSyntaxLocation } from "./json-syntax.ts";

const fillEnglish: SayIssue = (key, values) =>
  en.runDetail.issues[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

/** The English sentence: the JSON API's message, and what an English reader sees. */
export function inEnglish(words: IssueWords): string {
  return sayIssue(words, fillEnglish);
}

/** Every issue in words and in English; an unrecognized-keys issue becomes one "unknown field" per key. */
export function humanizeIssues(issues: ReadonlyArray<IssueLike>): HumanIssue[] {
  return issuesInWords(issues).map((issue) => (issue.words ? { ...issue, message: inEnglish(issue.words) } : issue));
}

export interface JsonSyntaxError extends JsonSyntaxLocation {
  /** What is wrong there, in English (the server's message). */
  reason: string;
}

/** Where JSON text stops being JSON, and why in English; undefined when the text is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const location = locateJsonSyntaxError(text);
  return location && { ...location, reason: inEnglish(location.words) };
}

/** "This is not valid JSON (line 2, column 5): …" in English (the server's refusal), or undefined for valid JSON. */
export function jsonSyntaxMessage(text: string, subject: JsonSubject = "subjectThis"): string | undefined {
  const words = jsonSyntaxWords(text, subject);
  return words && inEnglish(words);
}
