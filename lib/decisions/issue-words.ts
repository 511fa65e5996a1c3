/**
 * An input problem as words of the catalogs (runDetail.issues in messages/<locale>.json) and the
 * values they name, so the same problem reads in the reader's language in the browser, while the
 * server's JSON API keeps its English message (issue-english.ts, which fills in the English catalog's).
 * Browser-safe: no catalog here (the type of the English one only), the browser's bundle stays without it.
 */
import type en from "../../messages/en.json";

export type IssueKey = keyof (typeof en)["runDetail"]["issues"];

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
