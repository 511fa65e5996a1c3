/**
 * Values the reviewer can pick instead of typing: what the tool's schema allows (an enum, a
 * default, true/false) and what its suspend payload already proposes for a field (the address ids
 * it lists for `addressId`, an `orderId` it names). Picking one fills that field of the resume data;
 * nothing is ever filled in or sent without a click.
 */
import { fieldSchema, schemaTypes } from "./resume-schema";

export interface Suggestion {
  value: string | number | boolean | null;
  /** A name for the value found beside it in the payload ("Work" for an address), if any. */
  label?: string;
}

export interface FieldSuggestions {
  field: string;
  suggestions: Suggestion[];
}

const MAX_PER_FIELD = 12;
const MAX_NODES = 2_000;
const LABEL_KEYS = ["label", "name", "title", "displayName"];

type Primitive = Suggestion["value"];

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function fits(value: unknown, types: string[]): value is Primitive {
  const type = jsonType(value);
  if (!["string", "number", "integer", "boolean"].includes(type)) return false;
  if (types.length === 0) return true;
  return types.includes(type) || (type === "integer" && types.includes("number"));
}

function labelOf(node: Record<string, unknown>, value: unknown): string | undefined {
  for (const key of LABEL_KEYS) {
    const label = node[key];
    if (typeof label === "string" && label.trim() && label !== value) return label.slice(0, 60);
  }
  return undefined;
}

/**
 * Values in the payload the field could take: under a key of the field's own name, or, for a field
 * named `<thing>Id`, the `id` of an object listed under a key naming that thing (`addresses[].id`).
 */
function fromPayload(payload: unknown, field: string, types: string[]): Suggestion[] {
  const thing = /^(.+?)(Id|_id|ID)$/.exec(field)?.[1]?.toLowerCase();
  const found: Suggestion[] = [];
  let nodes = 0;
  const walk = (node: unknown, within: string[], depth: number) => {
    if (node === null || typeof node !== "object" || depth > 6 || ++nodes > MAX_NODES) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, within, depth + 1);
      return;
    }
    const entries = Object.entries(node as Record<string, unknown>);
    for (const [key, value] of entries) {
      const named = key === field || (thing !== undefined && key === "id" && within.some((name) => name.toLowerCase().startsWith(thing)));
      if (named && fits(value, types)) found.push({ value, label: labelOf(node as Record<string, unknown>, value) });
      else walk(value, [...within, key], depth + 1);
    }
  };
  walk(payload, [], 0);
  return found;
}

/** The suggestions for each top-level field of the schema; fields with none are left out. */
export function suggestFieldValues(schema: unknown, payload: unknown): FieldSuggestions[] {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (!properties || typeof properties !== "object") return [];
  const out: FieldSuggestions[] = [];
  for (const field of Object.keys(properties).slice(0, 50)) {
    const child = fieldSchema(schema, field);
    if (!child || "const" in child) continue;
    const types = schemaTypes(child);
    const candidates: Suggestion[] = [];
    if (Array.isArray(child.enum))
      candidates.push(...child.enum.filter((v) => fits(v, [])).map((value) => ({ value: value as Primitive })));
    else if (types.length === 1 && types[0] === "boolean") candidates.push({ value: true }, { value: false });
    if ("default" in child && fits(child.default, [])) candidates.push({ value: child.default, label: "default" });
    candidates.push(...fromPayload(payload, field, types));
    const seen = new Set<string>();
    const suggestions = candidates.filter((candidate) => {
      const key = JSON.stringify(candidate.value);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (suggestions.length) out.push({ field, suggestions: suggestions.slice(0, MAX_PER_FIELD) });
  }
  return out;
}

/** The resume data with `field` set to `value`: the reviewer's text if it is an object, else the skeleton. */
export function withField(text: string, skeleton: unknown, field: string, value: unknown): string {
  let base: unknown;
  try {
    base = JSON.parse(text);
  } catch {
    base = undefined;
  }
  const object =
    base !== null && typeof base === "object" && !Array.isArray(base)
      ? (base as Record<string, unknown>)
      : skeleton !== null && typeof skeleton === "object" && !Array.isArray(skeleton)
        ? { ...(skeleton as Record<string, unknown>) }
        : {};
  return JSON.stringify({ ...object, [field]: value }, null, 2);
}
