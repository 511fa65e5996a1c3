/**
 * The cheap refusals, provoked on every route of the document that needs a session: none sent
 * (401), a role without the permission (403 forbidden: support, on a route that needs more than
 * `read`), another origin (403 cross_site), a field no route takes (400), a body over the limit
 * (413) or of unknown length (411). Each answer is checked against the document by checked-api.ts.
 */
import { expect } from "vitest";
import type { checkedApi } from "./checked-api.ts";

type Api = Awaited<ReturnType<typeof checkedApi>>;
type Operation = {
  security?: Array<Record<string, unknown>>;
  requestBody?: unknown;
  "x-permission"?: string;
  responses: Record<string, any>;
};

const ANY_ID = "00000000-0000-4000-8000-000000000000";

export async function provokeCommonRefusals(api: Api, cookies: { admin: string; support: string }) {
  for (const [path, item] of Object.entries(api.document.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation.security?.some((scheme) => "sessionCookie" in scheme)) continue;
      const params = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((match) => [match[1]!, ANY_ID]));
      const write = operation.requestBody !== undefined;
      const body = write ? {} : undefined;
      const call = (request: Parameters<Api["call"]>[2]) => api.call(method.toUpperCase(), path, { params, ...request });
      const label = `${method.toUpperCase()} ${path}`;

      expect((await call({ body })).body.error.code, label).toBe("unauthenticated");
      // Support may read, and nothing more (lib/auth/roles.ts).
      if (operation["x-permission"] !== "read") {
        const refused = await call({ body, cookie: cookies.support });
        expect(refused.status, label).toBe(403);
      }
      if (!write) {
        await call({ cookie: cookies.admin, query: { zzz: "1" } });
        continue;
      }
      expect(
        (await call({ body: {}, cookie: cookies.admin, headers: { origin: "https://elsewhere.example" } })).body.error.code,
        label,
      ).toBe("cross_site");
      expect((await call({ body: { zzz: 1 }, cookie: cookies.admin })).status, label).toBe(400);
      const huge = JSON.stringify({ zzz: "x".repeat(300 * 1024) });
      expect((await call({ raw: huge, cookie: cookies.admin, headers: { "content-type": "application/json" } })).status, label).toBe(413);
      const stream = new ReadableStream({
        start: (controller) => (controller.enqueue(new TextEncoder().encode("{}")), controller.close()),
      });
      expect((await call({ raw: stream, cookie: cookies.admin, headers: { "content-type": "application/json" } })).status, label).toBe(411);
    }
  }
}
