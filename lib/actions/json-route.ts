/**
 * The JSON API's configuration routes (/api/admin/*, /api/profile/*): an Operation (operation.ts)
 * served over HTTP with the same cheap refusals as /api/decisions, in the same order. A write is
 * refused when cross-site or not JSON (lib/http/same-origin.ts) before anything else; then the
 * session and the role, before a byte of the body is read; then the body, at most
 * MAX_REQUEST_BODY_BYTES of it (lib/http/json-body.ts); then the operation's own schema, which
 * refuses unknown fields. Answers `{ ok, data | error }` with the status of the code (lib/errors.ts).
 * Unlike decisions these refusals are not written to the history, as the pages' actions write none.
 */
import { NextResponse } from "next/server";
import type { z } from "zod";
import { httpStatusOf } from "../errors.ts";
import { readJsonBody } from "../http/json-body.ts";
import { MAX_REQUEST_BODY_BYTES } from "../http/limits.mjs";
import { crossSiteProblem } from "../http/same-origin.ts";
import { authorize } from "./authorize.ts";
import { runOperation, type Operation } from "./operation.ts";
import type { ActionError, ActionResult } from "./result.ts";

export interface ServeOptions {
  /** A write: its input is the JSON body; otherwise (a read) the query string. */
  body?: boolean;
  /** Fields of the input taken from the path, e.g. `{ id }`: the body may not name them too. */
  path?: Record<string, string>;
  /** The status of a success (201 for a creation). */
  status?: number;
}

export async function serveOperation<Schema extends z.ZodType, Output>(
  request: Request,
  operation: Operation<Schema, Output>,
  { body = false, path = {}, status = 200 }: ServeOptions = {},
): Promise<NextResponse> {
  const result = await answer(request, operation, body, path);
  return NextResponse.json(result, { status: result.ok ? status : httpStatusOf(result.error.code) });
}

async function answer<Schema extends z.ZodType, Output>(
  request: Request,
  operation: Operation<Schema, Output>,
  body: boolean,
  path: Record<string, string>,
): Promise<ActionResult<Output>> {
  if (body) {
    const crossSite = crossSiteProblem(request);
    if (crossSite) return refusal({ code: "cross_site", message: crossSite });
  }
  const access = await authorize(operation.permission);
  if (!access.ok) return refusal(access.error);
  let input: unknown;
  if (body) {
    const read = await readJsonBody(request, MAX_REQUEST_BODY_BYTES);
    if (!read.ok) return refusal({ code: read.code, message: read.message });
    input = read.value;
  } else {
    input = Object.fromEntries(new URL(request.url).searchParams);
  }
  const named = Object.keys(path).filter((field) => isPlainObject(input) && field in input);
  if (named.length > 0) {
    const issues = named.map((field) => ({ path: field, message: `unknown field: ${field} (it is in the URL's path)` }));
    return refusal({ code: "invalid_input", message: issues.map((issue) => issue.message).join("; "), issues });
  }
  // Not an object (an array, a number): left as sent, for the schema to refuse in its own words.
  return runOperation(operation, access.actor, isPlainObject(input) ? { ...input, ...path } : input);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function refusal(error: ActionError): { ok: false; error: ActionError } {
  return { ok: false, error };
}
