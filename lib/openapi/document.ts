/**
 * The OpenAPI 3.1 document of the JSON API (GET /api/openapi.json), built by zod-openapi from the
 * declarations in routes.ts: the same zod schemas the routes validate with, and the answer schemas
 * the code is checked against (declare.ts). Built once per process: it depends on nothing at run time.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from "zod-openapi";
import type { ErrorCode } from "../errors.ts";
import { codesByStatus, errorEnvelope, okEnvelope } from "./envelope.ts";
import type { Caller, RouteDoc } from "./declare.ts";
import { ROUTES } from "./routes.ts";

/** The session cookie better-auth sets (Secure, hence `__Secure-`, whenever the console is served over HTTPS or in production). */
export const SESSION_COOKIE = "__Secure-better-auth.session_token";

/**
 * How each kind of caller proves who it is: a signed-in caller by its session cookie or an API
 * token (`Authorization: Bearer …`; a request with one is the token's alone, its cookie unread).
 */
const SECURITY: Record<Caller, Array<Record<string, string[]>>> = {
  signedIn: [{ sessionCookie: [] }, { bearerToken: [] }],
  anyone: [],
  slack: [{ slackSignature: [] }],
};

const SECURITY_SCHEMES = {
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description:
      "The session POST /api/auth/sign-in/email sets (`better-auth.session_token` without the prefix on plain-HTTP development servers).",
  },
  bearerToken: { type: "http", scheme: "bearer", description: "An API token: `Authorization: Bearer <token>`." },
  slackSignature: {
    type: "apiKey",
    in: "header",
    name: "X-Slack-Signature",
    description: "Slack's v0 signature of the body with X-Slack-Request-Timestamp, by the app's signing secret (SLACK_SIGNING_SECRET).",
  },
} as const;

type Responses = Record<string, ZodOpenApiResponseObject>;

function responsesOf(route: RouteDoc): Responses {
  const { success } = route;
  const json = success.data ? okEnvelope(success.data) : (success.raw ?? z.unknown());
  const responses: Responses = {
    [success.status]: {
      description: success.description,
      // Not expressible in OpenAPI: the answer has no body at all, or this JSON.
      ...(success.mayBeEmpty ? { "x-may-be-empty": true } : {}),
      content: success.eventStream
        ? { "text/event-stream": { schema: z.string().meta({ description: "Server-sent events: `id`, `event` and `data` lines." }) } }
        : {
            "application/json": { schema: json },
            ...(success.csv ? { "text/csv": { schema: z.string().meta({ description: "The same figures, one table." }) } } : {}),
          },
    },
  };
  if (success.etag) responses[304] = { description: "Unchanged since the ETag sent in If-None-Match." };
  // server.mjs refuses a URL that does not decode on every /api path; a session whose user has no role is forbidden everywhere.
  const always: ErrorCode[] = route.caller === "signedIn" ? ["invalid_input", "unauthenticated", "forbidden"] : ["invalid_input"];
  for (const [status, codes] of codesByStatus([...new Set([...route.errors, ...always])])) {
    responses[status] = { description: codes.join(", "), content: { "application/json": { schema: errorEnvelope(codes) } } };
  }
  for (const [status, other] of Object.entries(route.otherAnswers ?? {})) {
    const known = responses[status];
    const schema = known?.content?.["application/json"]?.schema as z.ZodType | undefined;
    responses[status] = {
      description: known ? `${known.description}; ${other.description}` : other.description,
      content: { "application/json": { schema: schema ? z.union([schema, other.schema]) : other.schema } },
    };
  }
  return responses;
}

/** `get /api/admin/rules/{id}` → `getAdminRulesById`: stable names for generated clients. */
function operationIdOf(route: RouteDoc): string {
  const words = route.path
    .replace(/^\/api\//, "")
    .split(/[/.-]/)
    .filter(Boolean)
    .map((part) => (part.startsWith("{") ? `By${capital(part.slice(1, -1))}` : capital(part)));
  return route.method + words.join("");
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function operationOf(route: RouteDoc): ZodOpenApiOperationObject {
  const requestParams = { ...(route.query ? { query: route.query } : {}), ...(route.pathParams ? { path: route.pathParams } : {}) };
  const permission = route.permission ? ` Needs the \`${route.permission}\` permission (lib/auth/roles.ts).` : "";
  return {
    operationId: operationIdOf(route),
    tags: [route.tag],
    summary: route.summary,
    ...(route.description || permission ? { description: `${route.description ?? ""}${permission}`.trim() } : {}),
    security: SECURITY[route.caller],
    ...(route.permission ? { "x-permission": route.permission } : {}),
    ...(Object.keys(requestParams).length ? { requestParams } : {}),
    ...(route.body ? { requestBody: { required: true, content: { [route.bodyType ?? "application/json"]: { schema: route.body } } } } : {}),
    responses: responsesOf(route),
  };
}

export function buildDocument(routes: readonly RouteDoc[] = ROUTES) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) paths[route.path] = { ...paths[route.path], [route.method]: operationOf(route) };
  const document = createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Agent approvals console: JSON API",
        version: "1",
        description:
          "Every answer of the console's own routes is `{ ok: true, data }` or `{ ok: false, error: { code, message, … } }`, with the HTTP status of the code (lib/errors.ts). Writes are JSON and same-origin (an Origin header of the console's own, or none with a token).",
      },
      paths,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    // Preprocessed and transformed fields (numbers read from text, trimmed names) have no JSON schema of their input: any value, checked by the route.
    { allowEmptySchema: { pipe: true, transform: true, default: true, optional: true, custom: true, prefault: true } as never },
  );
  // A query or path parameter is text on the wire, whatever its schema makes of it.
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const parameter of (operation as { parameters?: Array<{ schema?: Record<string, unknown> }> }).parameters ?? []) {
        if (parameter.schema && Object.keys(parameter.schema).length === 0) parameter.schema = { type: "string" };
      }
    }
  }
  return document;
}

let built: { json: string; etag: string } | undefined;

/** The document as served: its JSON text and an ETag of it. */
export function servedDocument(): { json: string; etag: string } {
  if (!built) {
    const json = JSON.stringify(buildDocument());
    built = { json, etag: `"${createHash("sha256").update(json).digest("base64url").slice(0, 27)}"` };
  }
  return built;
}
