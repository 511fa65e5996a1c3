/**
 * Requests to a console server under test whose every answer is checked against the OpenAPI
 * document it serves (GET /api/openapi.json): the status must be one the operation documents, the
 * body must validate against that answer's schema (ajv, JSON Schema 2020-12, as OpenAPI 3.1 uses),
 * and an error's code must be one the status lists. What was seen is kept for the coverage checks.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ConsoleServer } from "../helpers/console-server.ts";

type Json = Record<string, any>;

export interface Seen {
  operation: string;
  status: number;
  code?: string;
}

export interface CheckedRequest {
  /** Path parameters, filled into the template. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** A body sent as it is (a form, a malformed or huge body). */
  raw?: BodyInit;
  cookie?: string;
  headers?: Record<string, string>;
}

export async function checkedApi(server: ConsoleServer) {
  const response = await fetch(`${server.url}/api/openapi.json`);
  if (!response.ok) throw new Error(`GET /api/openapi.json answered ${response.status}`);
  const document = (await response.json()) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema(document, "openapi.json");
  const seen: Seen[] = [];

  async function call(method: string, template: string, request: CheckedRequest = {}) {
    const operation = document.paths[template]?.[method.toLowerCase()] as Json | undefined;
    if (!operation) throw new Error(`${method} ${template} is not in the document`);
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.params?.[name] ?? ""));
    const query = request.query ? `?${new URLSearchParams(request.query)}` : "";
    const json = request.body !== undefined;
    const answer = await fetch(`${server.url}${path}${query}`, {
      method,
      redirect: "manual",
      headers: {
        ...(json ? { "content-type": "application/json" } : {}),
        ...(request.cookie ? { cookie: request.cookie } : {}),
        ...request.headers,
      },
      body: json ? JSON.stringify(request.body) : request.raw,
      ...(request.raw instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit);
    const text = await answer.text();
    const type = answer.headers.get("content-type")?.split(";")[0] ?? "";
    const label = `${method} ${path}${query} → ${answer.status}`;
    const documented = operation.responses?.[String(answer.status)] as Json | undefined;
    if (!documented) throw new Error(`${label}: the document lists no ${answer.status} for ${method} ${template}:\n${text.slice(0, 500)}`);
    let body: unknown = undefined;
    if (answer.status !== 304 && !(text === "" && documented["x-may-be-empty"] === true)) {
      const content = documented.content?.[type] as Json | undefined;
      if (!content)
        throw new Error(`${label}: ${type || "no content type"} is not documented (${Object.keys(documented.content ?? {}).join(", ")})`);
      body = type === "application/json" ? JSON.parse(text) : text;
      const pointer = ["paths", template, method.toLowerCase(), "responses", String(answer.status), "content", type, "schema"]
        .map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1"))
        .join("/");
      const validate = ajv.getSchema(`openapi.json#/${pointer}`);
      if (!validate) throw new Error(`${label}: no schema at ${pointer}`);
      if (!validate(body))
        throw new Error(
          `${label}: the answer does not fit the document: ${ajv.errorsText(validate.errors, { separator: "\n" })}\n${text.slice(0, 800)}`,
        );
    }
    const code = (body as Json | undefined)?.error?.code;
    seen.push({ operation: `${method.toUpperCase()} ${template}`, status: answer.status, ...(typeof code === "string" ? { code } : {}) });
    return { status: answer.status, body: body as any, headers: answer.headers };
  }

  return { document, call, seen };
}
