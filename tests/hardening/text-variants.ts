/**
 * A sample request with one of its strings made bad, each in turn: the strings of its query and
 * body, and those inside JSON text it carries (resume data, suggested arguments), for
 * tests/hardening/text-fields.test.ts.
 */
import type { Sample } from "./text-samples.ts";

/** Where each string of `value` is, and how to put another in its place; JSON text (`"{…}"`) is walked inside too. */
function textsOf(value: unknown, where = ""): Array<{ where: string; replace: (text: string) => unknown }> {
  if (typeof value === "string") {
    const inside = jsonObject(value);
    const own = [{ where, replace: (text: string) => text }];
    if (!inside) return own;
    return [
      ...own,
      ...textsOf(inside, `${where} (JSON text)`).map(({ where: at, replace }) => ({
        where: at,
        replace: (text: string) => JSON.stringify(replace(text)),
      })),
    ];
  }
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    textsOf(child, Array.isArray(value) ? `${where}[${key}]` : where ? `${where}.${key}` : key).map(({ where: at, replace }) => ({
      where: at,
      replace: (text: string) =>
        Array.isArray(value) ? value.map((item, i) => (String(i) === key ? replace(text) : item)) : { ...value, [key]: replace(text) },
    })),
  );
}

function jsonObject(text: string): object | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    return JSON.parse(text) as object;
  } catch {
    return undefined;
  }
}

/** `text` of the sample's string at `where` with the bad character put inside it. */
function spoiled(original: string, bad: string): string {
  return `${original.slice(0, 1)}${bad}${original.slice(1)}`;
}

/** Each string of the sample made bad, one at a time: where, and the sample that carries it. */
export function variantsOf(sample: Sample, bad: string): Array<{ where: string; sample: Sample }> {
  return (["query", "body"] as const).flatMap((part) =>
    textsOf(sample[part] ?? {}).map(({ where, replace }) => ({
      where: `${part} ${where}`,
      sample: { ...sample, [part]: replace(spoiled(leafAt(sample[part], where), bad)) },
    })),
  );
}

/** The string at `where` (as textsOf names it) in `value`. */
function leafAt(value: unknown, where: string): string {
  const [outer, ...inner] = where.split(" (JSON text)");
  let current: any = value;
  for (const key of outer!.match(/[^.[\]]+/g) ?? []) current = current[key];
  if (inner.length === 0) return current as string;
  return leafAt(JSON.parse(current as string), inner.join(" (JSON text)").replace(/^\./, ""));
}

/**
 * A query string as a client that does not check its text sends it: a lone surrogate as the bytes
 * of its code point (`%ED%A0%80`, which is not UTF-8), since URLSearchParams would quietly send
 * U+FFFD instead and the server could never see it.
 */
export function queryString(query: Record<string, string>): string {
  // Iterating a string yields code points: a surrogate alone is a lone one; encodeURIComponent throws on it.
  const encode = (text: string) =>
    [...text]
      .map((char) => {
        if (!/^[\ud800-\udfff]$/.test(char)) return encodeURIComponent(char);
        const code = char.charCodeAt(0);
        return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
          .map((byte) => `%${byte.toString(16).toUpperCase()}`)
          .join("");
      })
      .join("");
  return Object.entries(query)
    .map(([key, value]) => `${encode(key)}=${encode(value)}`)
    .join("&");
}
