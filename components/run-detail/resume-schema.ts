/**
 * Reading the JSON Schema a tool declared for its resume data: an example to start from, a readable
 * list of fields, and a client-side validator (zod's JSON Schema conversion). The schema comes from
 * the stored run, so nothing here trusts its shape.
 */
import { z } from "zod";

type JsonSchema = Record<string, unknown>;

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

/** A value of the right shape to start typing from: required properties with empty values. */
export function exampleFromSchema(value: unknown, depth = 0): unknown {
  const schema = asSchema(value);
  if (!schema || depth > 4) return {};
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = typesOf(schema).find((t) => t !== "null");
  switch (type) {
    case "string":
      return "";
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
    case undefined: {
      const properties = asSchema(schema.properties);
      if (!properties) return {};
      const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === "string") : [];
      const keys = required.length > 0 ? required.filter((key) => key in properties) : Object.keys(properties);
      return Object.fromEntries(keys.slice(0, 50).map((key) => [key, exampleFromSchema(properties[key], depth + 1)]));
    }
    default:
      return null;
  }
}

export interface SchemaField {
  path: string;
  type: string;
  required: boolean;
  description?: string;
  constraints: string[];
}

const CONSTRAINTS: Array<[string, string]> = [
  ["minLength", "at least {} characters"],
  ["maxLength", "at most {} characters"],
  ["minimum", "≥ {}"],
  ["exclusiveMinimum", "> {}"],
  ["maximum", "≤ {}"],
  ["exclusiveMaximum", "< {}"],
  ["minItems", "at least {} items"],
  ["maxItems", "at most {} items"],
  ["pattern", "matches {}"],
  ["format", "format {}"],
];

function describeConstraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  for (const [key, template] of CONSTRAINTS) {
    const value = schema[key];
    if (typeof value === "number" || typeof value === "string") out.push(template.replace("{}", String(value)));
  }
  if (Array.isArray(schema.enum))
    out.push(
      `one of ${schema.enum
        .slice(0, 20)
        .map((v) => JSON.stringify(v))
        .join(", ")}`,
    );
  if ("const" in schema) out.push(`exactly ${JSON.stringify(schema.const)}`);
  if ("default" in schema) out.push(`default ${JSON.stringify(schema.default)}`);
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
    const type = types
      .map((t) => (t === "array" && items && typesOf(items).length ? `array of ${typesOf(items).join(" | ")}` : t))
      .join(" | ");
    out.push({
      path: prefix + key,
      type: type || "any",
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

export type Validator = (value: unknown) => string[];

/** A validator from the tool's JSON Schema, or undefined when zod cannot convert it (JSON-only checks then). */
export function buildValidator(value: unknown): Validator | undefined {
  const schema = asSchema(value);
  if (!schema) return undefined;
  try {
    const validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    return (data) => {
      const result = validator.safeParse(data);
      if (result.success) return [];
      return result.error.issues.map((issue) => {
        const path = issue.path.map(String).join(".");
        return path ? `${path}: ${issue.message}` : issue.message;
      });
    };
  } catch {
    return undefined;
  }
}
