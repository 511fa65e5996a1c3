/**
 * Text that a request may put into the database. PostgreSQL's `text` cannot hold NUL (U+0000): a
 * query carrying one fails, which surfaced as 500s on PostgreSQL only. A lone UTF-16 surrogate has
 * no UTF-8 form: both drivers silently turn it into U+FFFD, so what is stored is not what was sent.
 * Ids and filters also refuse every other control character: no id has one, and they hide text in
 * logs and CSV exports. Kept free of zod and Node APIs: validation schemas in the browser use it too.
 */

/** The longest id (run, tool call, agent, filter value) the console accepts. */
export const ID_MAX_LENGTH = 256;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be stored as sent (NUL or a lone surrogate), or undefined when it can. */
export function unstorableTextProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains a NUL character (U+0000)";
  if (LONE_SURROGATE.test(text)) return "contains an unpaired UTF-16 surrogate (not valid Unicode)";
  return undefined;
}

/** Which of idTextProblem's reasons `text` has, as a code (the lists' link problems name it in the reader's language). */
export function idTextProblemKind(text: string): "nul" | "surrogate" | "control" | undefined {
  if (text.includes("\u0000")) return "nul";
  if (LONE_SURROGATE.test(text)) return "surrogate";
  return CONTROL_CHARACTERS.test(text) ? "control" : undefined;
}

/** Why `text` is not a plausible id or filter value, or undefined when it is. */
export function idTextProblem(text: string): string | undefined {
  return unstorableTextProblem(text) ?? (CONTROL_CHARACTERS.test(text) ? "contains a control character" : undefined);
}

/**
 * `text` made storable for a record that must be written whatever it holds (the audit log): NUL
 * becomes U+FFFD, as lone surrogates already would, so the row is written instead of failing.
 */
export function toStorableText(text: string): string {
  return text.replaceAll("\u0000", "\ufffd").replace(new RegExp(LONE_SURROGATE.source, "g"), "\ufffd");
}
