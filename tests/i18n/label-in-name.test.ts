/**
 * A control named by aria-label says its visible text too (WCAG 2.5.3, axe's
 * label-content-name-mismatch): someone who says "click No thread" to speech input, or hears the
 * name read, meets the words they see. Checked in every language, the way axe-core compares them
 * (e2e/31 and e2e/40 run axe itself on the rendered queue).
 */
import { createTranslator } from "use-intl/core";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalogs.ts";
import { LOCALES } from "../../lib/i18n/locales.ts";

/** A text's words as axe-core 4.14 compares them: lower case, parentheticals and non-letters dropped, split by Intl.Segmenter. */
export function axeWords(text: string): string[] {
  let rest = text.toLowerCase().normalize("NFKD");
  for (let previous = ""; previous !== rest;) [previous, rest] = [rest, rest.replace(/\([^()]*\)/g, "")];
  rest = rest.replace(/[^\p{L}\p{N}]+/gu, " ");
  const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });
  return [...segmenter.segment(rest)].map((part) => part.segment.trim()).filter(Boolean);
}

/** Whether `visible`'s words appear, in order and together, among `name`'s. */
export function containsVisibleLabel(name: string, visible: string): boolean {
  const [haystack, needle] = [axeWords(name), axeWords(visible)];
  for (let at = 0; at + needle.length <= haystack.length; at++) {
    if (needle.every((word, index) => haystack[at + index] === word)) return true;
  }
  return needle.length === 0;
}

describe("accessible names that contain the visible label", () => {
  it("are told apart from those that do not, as axe tells them", () => {
    expect(containsVisibleLabel("Collapse the runs without a thread", "No thread")).toBe(false);
    expect(containsVisibleLabel("Collapse the runs with no thread", "No thread")).toBe(true);
    expect(containsVisibleLabel("Collapse thread ticket-4800", "ticket-4800")).toBe(true);
    expect(containsVisibleLabel("스레드 없는 실행 접기", "스레드 없음")).toBe(false);
  });

  it.each(LOCALES)("name the thread groups' toggles with their visible text in %s", (locale) => {
    const t = createTranslator({ locale, messages: CATALOGS[locale], namespace: "queue" });
    const groups = [
      // What the toggle shows → the group's name in its aria-label (components/runs/thread-group-row.tsx).
      { visible: t("noThread"), group: t("thread.none") },
      { visible: "ticket-4800", group: t("thread.named", { thread: "ticket-4800" }) },
    ];
    for (const { visible, group } of groups) {
      for (const name of [t("thread.expand", { group }), t("thread.collapse", { group })]) {
        expect(containsVisibleLabel(name, visible), `"${name}" does not contain "${visible}"`).toBe(true);
      }
    }
  });
});
