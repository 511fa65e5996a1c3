/**
 * The OpenAPI document as built (lib/openapi/document.ts), without a server: its error answers are
 * lib/errors.ts's table, its bodies are the routes' own schemas, and an answer that drifts from a
 * documented shape (a field more, a field less, a wrong type) does not validate.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../../lib/errors.ts";
import { buildDocument } from "../../lib/openapi/document.ts";

const document = buildDocument() as Record<string, any>;
const ajv = new Ajv2020({ strict: false });
ajv.addSchema(document, "openapi.json");

const schemaAt = (...parts: string[]) => {
  const pointer = parts.map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
  const validate = ajv.getSchema(`openapi.json#/${pointer}`);
  if (!validate) throw new Error(`no schema at ${pointer}`);
  return validate;
};
const answer = (path: string, method: string, status: string) =>
  schemaAt("paths", path, method, "responses", status, "content", "application/json", "schema");
const body = (path: string, method: string) => schemaAt("paths", path, method, "requestBody", "content", "application/json", "schema");

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with the session cookie, the Bearer scheme and Slack's signature declared", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(["bearerToken", "sessionCookie", "slackSignature"]);
    expect(document.components.securitySchemes.bearerToken).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("answers each error code under its own status, as lib/errors.ts maps it", () => {
    let checked = 0;
    for (const item of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          const codes: string[] = response.content?.["application/json"]?.schema?.properties?.error?.properties?.code?.enum ?? [];
          for (const code of codes) {
            expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${code} under ${status}`).toBe(Number(status));
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it("catches an answer that drifts from its shape", () => {
    const profile = answer("/api/profile", "get", "200");
    const data = { name: "Rita", email: "rita@test.example", role: "reviewer", locale: null, timeZone: "Europe/Berlin" };
    expect(profile({ ok: true, data })).toBe(true);
    expect(profile({ ok: true, data: { ...data, password: "x" } })).toBe(false);
    const { email: _email, ...withoutEmail } = data;
    expect(profile({ ok: true, data: withoutEmail })).toBe(false);
    expect(profile({ ok: true, data: { ...data, role: "owner" } })).toBe(false);
    const refused = answer("/api/profile", "get", "401");
    expect(refused({ ok: false, error: { code: "unauthenticated", message: "Sign in" } })).toBe(true);
    expect(refused({ ok: false, error: { code: "forbidden", message: "No" } })).toBe(false);
  });

  it("describes bodies with the routes' own schemas: their limits and unknown fields", () => {
    const decision = body("/api/decisions", "post");
    expect(decision({ action: "approve", runId: "run-1", toolCallId: "call-1" })).toBe(true);
    expect(decision({ action: "approve", runId: "r".repeat(257), toolCallId: "call-1" })).toBe(false);
    expect(decision({ action: "approve", runId: "run-1", toolCallId: "call-1", note: "x" })).toBe(false);
    expect(decision({ action: "approve_and_trust", runId: "run-1", toolCallId: "call-1", duration: "1h" })).toBe(true);
    const bulk = body("/api/decisions/bulk", "post");
    expect(bulk({ action: "decline", calls: [{ runId: "r", toolCallId: "c" }] })).toBe(true);
    expect(bulk({ action: "decline", calls: Array.from({ length: 101 }, () => ({ runId: "r", toolCallId: "c" })) })).toBe(false);
    const setting = body("/api/admin/review-settings/{agentId}", "put");
    expect(setting({ allowTrust: false })).toBe(true);
    expect(setting({ agentId: "refunds", allowTrust: false })).toBe(false);
  });

  it("names every operation once, for generated clients", () => {
    const ids = Object.values(document.paths as Record<string, Record<string, any>>).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId as string),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain("getAdminRulesById");
  });
});
