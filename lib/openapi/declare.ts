/**
 * How a route is described in the OpenAPI document (GET /api/openapi.json): one declaration per
 * method of each app/api route file, in the registry (routes.ts). A declaration names the very zod
 * schemas the route validates with (an Operation's input, lib/actions/operation.ts) and the schema
 * of its answer, which must fit what the code returns: `answers()` and `servedOperation()` refuse
 * to compile when the route's data type does not fit the schema (after JSON: dates become strings).
 * tests/openapi/ checks the real answers against the document and every route file against it.
 */
import { z } from "zod";
import type { Permission } from "../auth/roles.ts";
import type { Operation } from "../actions/operation.ts";
import type { ErrorCode } from "../errors.ts";

export type Method = "get" | "post" | "put" | "patch" | "delete";

/** Who may call: a signed-in session (the cookie; API tokens join it here), nobody in particular, or Slack's signature. */
export type Caller = "signedIn" | "anyone" | "slack";

export interface RouteDoc {
  method: Method;
  /** OpenAPI's spelling: `/api/admin/rules/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  caller: Caller;
  /** The role's permission, when one is needed beyond being signed in. */
  permission?: Permission;
  query?: z.ZodObject;
  pathParams?: z.ZodObject;
  /** The JSON body; or, for Slack, a form (`bodyType`). */
  body?: z.ZodType;
  bodyType?: "application/json" | "application/x-www-form-urlencoded";
  /** The success: its status and the envelope's `data`, or a whole answer of its own (`raw`). */
  success: {
    status: number;
    description: string;
    data?: z.ZodType;
    raw?: z.ZodType;
    /** Also answered as text/csv (a query parameter asks for it). */
    csv?: boolean;
    /** Sometimes answered with no body at all. */
    mayBeEmpty?: boolean;
    /** Carries an ETag, and answers 304 to If-None-Match naming it. */
    etag?: boolean;
    /** A server-sent-events stream (text/event-stream) instead of JSON. */
    eventStream?: boolean;
  };
  /** Every code of lib/errors.ts the route answers with; grouped by status in the document. */
  errors: readonly ErrorCode[];
  /** Answers that are not the console's envelope (better-auth's own, the health check's), by status. */
  otherAnswers?: Record<number, { description: string; schema: z.ZodType }>;
}

/** A value as it arrives after JSON: dates as strings, `undefined` fields gone. */
export type Json<T> = T extends Date
  ? string
  : T extends string | number | boolean | null | undefined
    ? T
    : T extends ReadonlyArray<infer Item>
      ? Json<Item>[]
      : T extends object
        ? { [Key in keyof T]: Json<T[Key]> }
        : T;

/** `Schema` itself when `Data` (what the code answers) fits it; otherwise a type no schema has, naming the misfit. */
export type Fits<Data, Schema extends z.ZodType> = [Json<Data>] extends [z.output<Schema>]
  ? Schema
  : { "the answer does not fit its documented schema": Json<Data> };

/** The schema of a route's data, checked at compile time against the type the route answers. */
export function answers<Data>() {
  return <Schema extends z.ZodType>(schema: Schema & Fits<Data, Schema>): Schema => schema;
}

/** The cheap refusals every signed-in read answers with (lib/actions/json-route.ts, server.mjs). */
export const READ_ERRORS = ["invalid_input", "unauthenticated", "server_busy", "internal"] as const satisfies readonly ErrorCode[];
/** …and every write (a JSON body, same-origin). */
export const WRITE_ERRORS = [
  "invalid_input",
  "unauthenticated",
  "cross_site",
  "length_required",
  "payload_too_large",
  "internal",
] as const satisfies readonly ErrorCode[];

interface ServedOptions {
  method: Method;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Fields of the operation's input taken from the URL's path (`serveOperation`'s `path`), by their name in the path. */
  pathFields?: Record<string, string>;
  /** The status of a success (201 for a creation). */
  status?: number;
  /** The codes the operation itself may answer, beside the cheap refusals. */
  errors?: readonly ErrorCode[];
}

/**
 * A route served by `serveOperation`: the input is the operation's own schema (a read's query, a
 * write's body, less what the path names), the answer `{ ok, data }` with `data` fitting `Schema`.
 */
export function servedOperation<Input extends z.ZodType, Output, Schema extends z.ZodType>(
  operation: Operation<Input, Output>,
  data: Schema & Fits<Output, Schema>,
  { method, path, tag, summary, description, pathFields = {}, status = 200, errors = [] }: ServedOptions,
): RouteDoc {
  const write = method !== "get";
  const input = objectOf(operation.input);
  const shape = input.shape as Record<string, z.ZodType>;
  const fromPath = Object.values(pathFields);
  const rest = Object.fromEntries(Object.entries(shape).filter(([field]) => !fromPath.includes(field)));
  const pathParams = Object.keys(pathFields).length
    ? z.object(Object.fromEntries(Object.entries(pathFields).map(([name, field]) => [name, shape[field] ?? z.string()])))
    : undefined;
  return {
    method,
    path,
    tag,
    summary,
    description,
    caller: "signedIn",
    permission: operation.permission,
    // The operation's own schema, unless the path names some of its fields: then its other fields.
    ...(write
      ? { body: fromPath.length ? z.object(rest).strict() : input }
      : Object.keys(rest).length
        ? { query: fromPath.length ? z.object(rest).strict() : input }
        : {}),
    pathParams,
    success: { status, description: summary, data },
    errors: [...(write ? WRITE_ERRORS : READ_ERRORS), "forbidden", ...errors],
  };
}

/** An operation's input as an object schema, each field with its own checks (a refinement across fields is no JSON Schema anyway). */
function objectOf(schema: z.ZodType): z.ZodObject {
  if (schema instanceof z.ZodObject) return schema;
  throw new Error("servedOperation needs an operation whose input is an object schema");
}
