/**
 * Reading the JSON Schema a tool declared for its resume data: a skeleton to start from, a readable
 * list of fields, and a client-side validator (zod's JSON Schema conversion). The schema comes from
 * the stored run, so nothing here trusts its shape.
 */
import { issuesInWords, type WordedIssue } from "@/lib/decisions/issues";

export type JsonSchema = Record<string, unknown>;

function asSchema(value: unknown): JsonSchema | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return [...new Set(options.flatMap((option) => (asSchema(option) ? typesOf(asSchema(option)!) : [])))];
  }
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map((v) => (v === null ? "null" : typeof v)))];
  if ("const" in schema) return [schema.const === null ? "null" : typeof schema.const];
  return [];
}

/**
 * What the editor starts from: the required fields, each `null` until the reviewer fills it in, so
 * the skeleton shows what to write and cannot be sent as it is (null is "required" in the check).
 * Only a `const` is filled in: it is the one value allowed. Optional fields are left out.
 */
export function skeletonFromSchema(value: unknown, depth = 0): unknown {
  const schema = asSchema(value);
  if (!schema || depth > 4) return null;
  if ("const" in schema) return schema.const;
  const type = typesOf(schema).find((t) => t !== "null");
  const properties = asSchema(schema.properties);
  if ((type === "object" || type === undefined) && properties) {
    const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === "string") : [];
    const keys = required.filter((key) => key in properties);
    return Object.fromEntries(keys.slice(0, 50).map((key) => [key, skeletonFromSchema(properties[key], depth + 1)]));
  }
  return type === "object" ? {} : null;
}

/** The schema of a top-level field, if the schema is an object that declares it. */
export function fieldSchema(value: unknown, field: string): JsonSchema | undefined {
  return asSchema(asSchema(asSchema(value)?.properties)?.[field]);
}

/** The JSON types a schema admits ("string", "number", …), for matching suggested values. */
export function schemaTypes(value: unknown): string[] {
  const schema = asSchema(value);
  return schema ? typesOf(schema) : [];
}

export interface SchemaField {
  path: string;
  /** JSON Schema's type names ("string", "number"); a list's with the types of its items. None: any. */
  types: Array<{ name: string; items?: string }>;
  required: boolean;
  description?: string;
  constraints: SchemaConstraint[];
}

/** A JSON Schema keyword that limits a field, with its value as text; the view words it in the reader's language. */
export interface SchemaConstraint {
  kind: (typeof CONSTRAINT_KEYWORDS)[number] | "oneOf" | "exactly" | "default";
  value: string;
}

const CONSTRAINT_KEYWORDS = [
  "minLength",
  "maxLength",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "pattern",
  "format",
] as const;

function describeConstraints(schema: JsonSchema): SchemaConstraint[] {
  const out: SchemaConstraint[] = [];
  for (const kind of CONSTRAINT_KEYWORDS) {
    const value = schema[kind];
    if (typeof value === "number" || typeof value === "string") out.push({ kind, value: String(value) });
  }
  if (Array.isArray(schema.enum))
    out.push({
      kind: "oneOf",
      value: schema.enum
        .slice(0, 20)
        .map((v) => JSON.stringify(v))
        .join(", "),
    });
  if ("const" in schema) out.push({ kind: "exactly", value: JSON.stringify(schema.const) });
  if ("default" in schema) out.push({ kind: "default", value: JSON.stringify(schema.default) });
  return out;
}

/** The schema's properties (nested objects as dotted paths), for people to read. */
export function describeSchemaFields(value: unknown, prefix = "", depth = 0, out: SchemaField[] = []): SchemaField[] {
  const schema = asSchema(value);
  const properties = asSchema(schema?.properties);
  if (!schema || !properties || depth > 3) return out;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const [key, child] of Object.entries(properties)) {
    if (out.length >= 200) break;
    const childSchema = asSchema(child) ?? {};
    const types = typesOf(childSchema);
    const items = asSchema(childSchema.items);
    out.push({
      path: prefix + key,
      types: types.map((name) =>
        name === "array" && items && typesOf(items).length ? { name, items: typesOf(items).join(" | ") } : { name },
      ),
      required: required.has(key),
      description: typeof childSchema.description === "string" ? childSchema.description : undefined,
      constraints: describeConstraints(childSchema),
    });
    describeSchemaFields(childSchema, `${prefix}${key}.`, depth + 1, out);
  }
  return out;
}

/** A one-line summary of a schema that is not an object with properties ("a string", …). */
export function describeSchemaType(value: unknown): string | undefined {
  const schema = asSchema(value);
  if (!schema) return undefined;
  const types = typesOf(schema);
  return types.length ? types.join(" | ") : undefined;
}

export function additionalPropertiesForbidden(value: unknown): boolean {
  return asSchema(value)?.additionalProperties === false;
}

export type Validator = (value: unknown) => WordedIssue[];

/**
 * A validator from the tool's JSON Schema, or undefined when zod cannot convert it (JSON-only checks
 * then). zod is loaded on first use: it is a quarter of the queue page's JavaScript otherwise, and
 * only an input request's editor needs it (the server checks every resume with zod regardless).
 */
export async function loadValidator(value: unknown): Promise<Validator | undefined> {
  const schema = asSchema(value);
  if (!schema) return undefined;
  const { z } = await import("zod");
  try {
    const validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    return (data) => {
      const result = validator.safeParse(data);
      // The server words its refusal the same way (lib/decisions/issues.ts).
      return result.success ? [] : issuesInWords(result.error.issues);
    };
  } catch {
    return undefined;
  }
}
