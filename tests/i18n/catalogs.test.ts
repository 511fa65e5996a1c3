/**
 * The catalogs stay complete and the components stay translated (part of `npm test`):
 *  - every catalog has exactly the keys the others have, with the same {arguments}, and each
 *    message formats;
 *  - no component renders literal text that is not in the catalogs (tests/i18n/literal-text.ts),
 *    but for the files listed below, not converted yet. That list may only shrink: a listed file
 *    with nothing left to convert fails too, so it is taken off when it is done.
 */
import { readFileSync } from "node:fs";
import { createTranslator } from "use-intl/core";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalogs.ts";
import { LOCALES } from "../../lib/i18n/locales.ts";
import { ALLOWED_TEXT } from "./allowed-text.ts";
import { literalText, uiSourceFiles } from "./literal-text.ts";

/** Pages and components still in English (issue 26 item 3), to be converted and taken off. */
const NOT_YET_CONVERTED = new Set<string>([]);

type Catalog = { [key: string]: string | Catalog };

function flatten(catalog: Catalog, prefix = ""): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") entries.set(path, value);
    else for (const [nested, text] of flatten(value, path)) entries.set(nested, text);
  }
  return entries;
}

/** The names of a message's ICU arguments, in select and plural branches too, and its rich-text tags (`<id></id>`). */
export function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  let at = 0;
  // Reads message text up to the `}` that closes it (or the end), collecting the arguments met.
  const text = (): void => {
    while (at < message.length && message[at] !== "}") {
      if (message[at] === "{") argument();
      else at++;
    }
  };
  const argument = (): void => {
    at++; // {
    const head = /^\s*([^,}\s]+)\s*(?:,\s*(\w+)\s*)?/.exec(message.slice(at))!;
    names.add(head[1]!);
    at += head[0].length;
    const type = head[2];
    if (type === "plural" || type === "select" || type === "selectordinal") {
      while (at < message.length && message[at] !== "}") {
        if (message[at] === "{") {
          at++;
          text();
          at++; // the option's closing }
        } else at++;
      }
    } else while (at < message.length && message[at] !== "}") at++; // {n, number, …}
    at++; // the argument's closing }
  };
  text();
  for (const tag of message.matchAll(/<(\w+)>/g)) names.add(`<${tag[1]}>`);
  return [...names].sort();
}

export function catalogProblems(catalogs: Record<string, Catalog>): string[] {
  const flat = Object.fromEntries(Object.entries(catalogs).map(([locale, catalog]) => [locale, flatten(catalog)]));
  const allKeys = new Set(Object.values(flat).flatMap((entries) => [...entries.keys()]));
  const problems: string[] = [];
  for (const key of [...allKeys].sort()) {
    const having = Object.entries(flat).filter(([, entries]) => entries.has(key));
    for (const [locale, entries] of Object.entries(flat)) {
      if (!entries.has(key)) problems.push(`${locale} lacks ${key} (${having.map(([other]) => other).join(", ")} have it)`);
      else if (!entries.get(key)!.trim()) problems.push(`${locale}: ${key} is empty`);
    }
    const [first, ...rest] = having;
    for (const [locale, entries] of rest) {
      const expected = argumentsOf(first![1].get(key)!);
      const actual = argumentsOf(entries.get(key)!);
      if (expected.join() !== actual.join())
        problems.push(`${locale}: ${key} has arguments {${actual.join(", ")}}, ${first![0]} has {${expected.join(", ")}}`);
    }
  }
  return problems;
}

describe("message catalogs", () => {
  it("have the same keys and arguments in every language", () => {
    expect(Object.keys(CATALOGS).sort()).toEqual([...LOCALES].sort());
    expect(catalogProblems(CATALOGS as unknown as Record<string, Catalog>)).toEqual([]);
  });

  it("catch a missing key, an extra key and a changed argument", () => {
    const en = { a: { b: "Hello {name}", c: "Bye" } };
    expect(catalogProblems({ en, ko: { a: { b: "안녕 {name}" } } })).toEqual(["ko lacks a.c (en have it)"]);
    expect(catalogProblems({ en, ko: { a: { b: "안녕 {name}", c: "잘 가", d: "더" } } })).toEqual(["en lacks a.d (ko have it)"]);
    expect(catalogProblems({ en, ko: { a: { b: "안녕 {who}", c: "잘 가" } } })).toEqual(["ko: a.b has arguments {who}, en has {name}"]);
    expect(argumentsOf("{n, plural, one {# {thing}} other {many}} by {who} <b></b>")).toEqual(["<b>", "n", "thing", "who"]);
    expect(argumentsOf("{action, select, approve {approving} other {deciding}}")).toEqual(["action"]);
  });

  it("format every message in every language", () => {
    for (const locale of LOCALES) {
      const errors: string[] = [];
      const t = createTranslator({ locale, messages: CATALOGS[locale], timeZone: "UTC", onError: (error) => errors.push(error.message) });
      for (const [key, message] of flatten(CATALOGS[locale] as unknown as Catalog)) {
        const names = argumentsOf(message);
        const values = Object.fromEntries(
          names.map((name) => (name.startsWith("<") ? [name.slice(1, -1), (chunks: unknown) => chunks] : [name, 1])),
        );
        const format = t as unknown as { (key: string, values: object): unknown; rich: (key: string, values: object) => unknown };
        if (names.some((name) => name.startsWith("<"))) format.rich(key, values);
        else format(key, values);
      }
      expect(errors, locale).toEqual([]);
    }
  });
});

describe("literal text in components", () => {
  const findings = new Map(uiSourceFiles().map((file) => [file, literalText(file, readFileSync(file, "utf8"), ALLOWED_TEXT)] as const));

  it("is found: JSX text, text props, literals in {…}, sentences built in code", () => {
    const source = `
      export function A({ open, t }) {
        const message = "Saved the rule.";
        return (
          <div aria-label="Close" className="px-2 text-sm" title={t("x.y")}>
            Hello
            {open ? "Open" : t("closed")}
            {kind === "approval" ? t("a") : null}
            <input placeholder={\`Search \${t("z")}\`} />
            <span>{t("ok")} · ✓</span>
          </div>
        );
      }`;
    expect(literalText("a.tsx", source).map((finding) => finding.text)).toEqual(["Saved the rule.", "Close", "Hello", "Open", "Search"]);
  });

  it("is only in the files not yet converted", () => {
    const unexpected = [...findings].filter(([file, found]) => found.length && !NOT_YET_CONVERTED.has(file));
    expect(unexpected.map(([file, found]) => `${file}: ${found.map((f) => `${f.line}: ${f.text}`).join(" | ")}`)).toEqual([]);
  });

  it("leaves each file on the not-yet-converted list something to convert (take a converted file off)", () => {
    const done = [...NOT_YET_CONVERTED].filter((file) => !findings.get(file)?.length);
    expect(done).toEqual([]);
  });
});
