/**
 * Why a list left a URL parameter out (lib/search-params.ts `sanitizeQuery`), as catalog words
 * (linkProblems in messages/<locale>.json) and the values they name, for the page to say in the
 * reader's language. Browser-safe: no catalog here (the type of the English one only); the English
 * sentences of the JSON answers are filled in on the server (link-problems.ts).
 */
import type en from "../messages/en.json";

export type LinkProblemKey = keyof (typeof en)["linkProblems"];

/** A catalog message and its arguments; an argument may itself be words (a field's label inside a sentence). */
export interface LinkProblemWords {
  key: LinkProblemKey;
  values?: Record<string, string | LinkProblemWords>;
}

/** One parameter left out (or the whole link unreadable): the English sentence and the same as words. */
export interface LinkProblem {
  /** "perPage=7 was ignored: perPage must be one of 10, 20, 50, 100": what the JSON answers say. */
  message: string;
  words: LinkProblemWords;
}

export type SayLinkProblem = (key: LinkProblemKey, values: Record<string, string>) => string;

/** Words as one language says them, nested arguments first. */
export function sayLinkProblem(words: LinkProblemWords, say: SayLinkProblem): string {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(words.values ?? {}))
    values[name] = typeof value === "object" ? sayLinkProblem(value, say) : value;
  return say(words.key, values);
}

/** The words a zod issue of lib/search-params.ts carries, if any. */
export function wordsOfIssue(issue: { params?: Record<string, unknown> }): LinkProblemWords | undefined {
  const words = issue.params?.words;
  return typeof words === "object" && words !== null && "key" in words ? (words as LinkProblemWords) : undefined;
}
