/**
 * Why a list left a URL parameter out, in English: every JSON answer keeps the English sentence it
 * always had (the English catalog's linkProblems, filled in here), stable for scripts; the page says
 * the same words in the reader's language (link-problem-words.ts, without this catalog). Server-side:
 * the browser never loads the English catalog. Its linkProblems messages use plain {name} arguments
 * only, so filling them in needs no ICU library.
 */
import en from "../messages/en.json" with { type: "json" };
import { sayLinkProblem, type LinkProblem, type LinkProblemKey, type LinkProblemWords, type SayLinkProblem } from "./link-problem-words.ts";

export { sayLinkProblem, wordsOfIssue } from "./link-problem-words.ts";
export type { LinkProblem, LinkProblemKey, LinkProblemWords, SayLinkProblem } from "./link-problem-words.ts";

const fillEnglish: SayLinkProblem = (key, values) =>
  en.linkProblems[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? values[name]! : whole));

export function linkProblemInEnglish(words: LinkProblemWords): string {
  return sayLinkProblem(words, fillEnglish);
}

/** A zod issue's options carrying the words: the English message (the JSON API's) and the words in `params`. */
export function issueOf(words: LinkProblemWords): { message: string; params: { words: LinkProblemWords } } {
  return { message: linkProblemInEnglish(words), params: { words } };
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
