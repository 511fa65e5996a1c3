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

/** Where in a request's input text that cannot be stored was found, and the sentence saying so. */
export interface UnstorableText {
  /** A dotted path (`rule.conditions[0].value`); "" for the input itself. */
  path: string;
  message: string;
}

/**
 * The first string, or object key, anywhere in `input` (a parsed JSON body, a server action's
 * arguments, a route's path and query) that cannot be stored as sent; undefined when there is none.
 * Every field of every route and server action, and every one added later, is checked here, after
 * its own schema (lib/actions/result.ts `parseInput`): no schema has to remember it, not even for
 * values it takes as they come (a rule condition's value). Iterative, so a deeply nested body cannot
 * exhaust the stack; a value met twice (server action arguments may share one) is walked once.
 * `root` names the input in the paths (e.g. "resume data" for a value parsed from a field's JSON text).
 */
export function unstorableTextIn(input: unknown, root = ""): UnstorableText | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value: input, path: root }];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === "string") {
      const problem = unstorableTextProblem(value);
      if (problem) return { path, message: `${path || "the input"} ${problem}` };
      continue;
    }
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    const list = Array.isArray(value);
    const entries = Object.entries(value);
    for (const [key] of list ? [] : entries) {
      const problem = unstorableTextProblem(key);
      if (problem) return { path, message: `a field name${path ? ` in ${path}` : ""} ${problem}` };
    }
    // Pushed last first, so the fields are looked at in their order.
    for (const [key, child] of entries.reverse()) {
      pending.push({ value: child, path: list ? `${path}[${key}]` : path ? `${path}.${key}` : key });
    }
  }
  return undefined;
}
