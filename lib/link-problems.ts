/**
 * Why a list left a URL parameter out (lib/search-params.ts `sanitizeQuery`), as catalog words
 * (linkProblems in messages/<locale>.json) and the values they name: the page shows them in the
 * reader's language, while every JSON answer keeps the English sentence it always had (the English
 * catalog, filled in here), stable for scripts. Browser-safe: the catalog is JSON, its linkProblems
 * messages use plain {name} arguments only (no plurals), so filling them in needs no ICU library.
 */
import en from "../messages/en.json" with { type: "json" };

export type LinkProblemKey = keyof typeof en.linkProblems;

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

const fillEnglish: SayLinkProblem = (key, values) =>
  en.linkProblems[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? values[name]! : whole));

export function linkProblemInEnglish(words: LinkProblemWords): string {
  return sayLinkProblem(words, fillEnglish);
}

/** A zod issue's options carrying the words: the English message (the JSON API's) and the words in `params`. */
export function issueOf(words: LinkProblemWords): { message: string; params: { words: LinkProblemWords } } {
  return { message: linkProblemInEnglish(words), params: { words } };
}

/** The words a zod issue of lib/search-params.ts carries, if any. */
export function wordsOfIssue(issue: { params?: Record<string, unknown> }): LinkProblemWords | undefined {
  const words = issue.params?.words;
  return typeof words === "object" && words !== null && "key" in words ? (words as LinkProblemWords) : undefined;
}

/** "<param>=<value> was ignored: <reason>", the value cut at 40 characters. */
export function ignoredParameter(param: string, value: string, reason: LinkProblemWords): LinkProblem {
  const words: LinkProblemWords = { key: "ignored", values: { param, value: truncate(value), reason } };
  return { message: linkProblemInEnglish(words), words };
}

export function linkProblem(key: LinkProblemKey): LinkProblem {
  return { message: linkProblemInEnglish({ key }), words: { key } };
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
