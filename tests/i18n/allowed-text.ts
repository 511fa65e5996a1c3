/**
 * Literal text a component may show in every language: names and notations that are not words of
 * any one language. Keep it short; anything a reader reads as a word belongs in the catalogs.
 */
export const ALLOWED_TEXT: ReadonlySet<string> = new Set([
  // JSON's literal values, shown as JSON.
  "null",
  "true",
  "false",
  // The Slack app's slash command, typed as is in every language.
  "/approvals link",
  // Key names in aria-keyshortcuts (a queue row opens with Enter or O): the ARIA notation, read by no one as words.
  "Enter O",
]);
