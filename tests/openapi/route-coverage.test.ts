/**
 * The OpenAPI document (GET /api/openapi.json, lib/openapi) against the route files: every method a
 * route file under app/api exports is documented, and every documented route has its file and
 * method. better-auth's catch-all is documented as far as the console opens it (lib/auth/endpoints.ts).
 */
import { describe, expect, it } from "vitest";
import { AUTH_BASE_PATH, AUTH_ENDPOINTS } from "../../lib/auth/endpoints.ts";
import { buildDocument } from "../../lib/openapi/document.ts";
import { apiRoutes } from "../hardening/api-routes.ts";

type Documented = Array<{ path: string; method: string }>;

interface RouteFile {
  file: string;
  /** OpenAPI's spelling of its path (`{id}`); for a catch-all, the prefix before it (`/api/auth`). */
  path: string;
  catchAll: boolean;
  methods: string[];
}

/** The route files as the hardening tests read them (tests/hardening/api-routes.ts), in OpenAPI's spelling. */
function routeFiles(): RouteFile[] {
  return apiRoutes().map(({ file, pattern, methods }) => {
    const catchAll = pattern.includes("[...");
    const path = catchAll ? pattern.slice(0, pattern.indexOf("/[...")) : pattern.replace(/\[(\w+)\]/g, "{$1}");
    return { file, path, catchAll, methods };
  });
}

function documentedRoutes(document: { paths?: Record<string, object> }): Documented {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => ["get", "post", "put", "patch", "delete", "head", "options"].includes(key))
      .map((method) => ({ path, method: method.toUpperCase() })),
  );
}

/** What the document and the files disagree on, each as a sentence. */
function problems(files: RouteFile[], documented: Documented): string[] {
  const found: string[] = [];
  const isDocumented = (path: string, method: string) => documented.some((route) => route.path === path && route.method === method);
  for (const file of files.filter((candidate) => !candidate.catchAll)) {
    for (const method of file.methods) {
      if (!isDocumented(file.path, method)) found.push(`${method} ${file.path} (${file.file}) is not in the document`);
    }
  }
  for (const route of documented) {
    const file = files.find((candidate) => candidate.path === route.path && !candidate.catchAll);
    const catchAll = files.find((candidate) => candidate.catchAll && route.path.startsWith(`${candidate.path}/`));
    if (file && file.methods.includes(route.method)) continue;
    if (catchAll && catchAll.methods.includes(route.method) && opensAuthEndpoint(route)) continue;
    found.push(`${route.method} ${route.path} is documented but no route file answers it`);
  }
  return found;
}

const openEndpoints = AUTH_ENDPOINTS.filter((endpoint) => !endpoint.sso);
const opensAuthEndpoint = ({ path, method }: { path: string; method: string }) =>
  openEndpoints.some((endpoint) => `${AUTH_BASE_PATH}${endpoint.path}` === path && endpoint.method === method);

describe("the OpenAPI document lists every route file, and only those", () => {
  const document = buildDocument();
  const documented = documentedRoutes(document);
  const files = routeFiles();

  it("reads the route files in OpenAPI's spelling", () => {
    expect(files.length).toBeGreaterThan(25);
    expect(files.find((file) => file.catchAll)).toMatchObject({ path: "/api/auth", file: "app/api/auth/[...all]/route.ts" });
    expect(files.find((file) => file.path === "/api/admin/rules/{id}")?.methods).toEqual(["GET", "PUT", "DELETE"]);
  });

  it("documents every method of every route file, and nothing else", () => {
    expect(problems(files, documented)).toEqual([]);
  });

  it("documents the sign-in endpoints the console opens without SSO", () => {
    for (const endpoint of openEndpoints)
      expect(documented).toContainEqual({ path: `${AUTH_BASE_PATH}${endpoint.path}`, method: endpoint.method });
  });

  it("fails for a route file the document lacks, and for a documented route with no file", () => {
    const extraFile: RouteFile = { file: "app/api/tokens/route.ts", path: "/api/tokens", catchAll: false, methods: ["GET"] };
    const withoutQueue = documented.filter((route) => route.path !== "/api/queue");
    expect(problems([...files, extraFile], documented)).toEqual(["GET /api/tokens (app/api/tokens/route.ts) is not in the document"]);
    expect(problems(files, withoutQueue)).toEqual(["GET /api/queue (app/api/queue/route.ts) is not in the document"]);
    expect(problems(files, [...documented, { path: "/api/auth/sign-up/email", method: "POST" }])).toEqual([
      "POST /api/auth/sign-up/email is documented but no route file answers it",
    ]);
    expect(problems(files, [...documented, { path: "/api/queue", method: "DELETE" }])).toEqual([
      "DELETE /api/queue is documented but no route file answers it",
    ]);
  });
});
