/**
 * An input problem as words of the catalogs (runDetail.issues in messages/<locale>.json) and the
 * values they name, so the same problem reads in the reader's language in the browser, while the
 * server's JSON API keeps its English message (the same catalog's English, filled in here).
 * Browser-safe: the English catalog is JSON, and its issue messages use plain {name} arguments only.
 */
import en from "../../messages/en.json" with { type: "json" };

export type IssueKey = keyof typeof en.runDetail.issues;

/** A catalog message and its arguments; an argument may itself be words (a type's name inside a sentence). */
export interface IssueWords {
  key: IssueKey;
  values?: Record<string, string | number | IssueWords>;
}

/** How a reader's language says one catalog message with its arguments filled in. */
export type SayIssue = (key: IssueKey, values: Record<string, string | number>) => string;

/** Words as one language says them, nested arguments first. */
export function sayIssue(words: IssueWords, say: SayIssue): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(words.values ?? {})) values[name] = typeof value === "object" ? sayIssue(value, say) : value;
  return say(words.key, values);
}

const fillEnglish: SayIssue = (key, values) =>
  en.runDetail.issues[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

/** The English sentence: the JSON API's message, and what an English reader sees. */
export function inEnglish(words: IssueWords): string {
  return sayIssue(words, fillEnglish);
}
