/**
 * Every route of the JSON API, as the OpenAPI document describes it. A new route under app/api is
 * declared in one of these lists (or a new list added here); tests/openapi/route-coverage.test.ts
 * fails until it is, and when a declared route has no route file.
 */
import { ACCESS_ROUTES } from "./routes-access.ts";
import { ADMIN_ROUTES } from "./routes-admin.ts";
import { AUDIT_ROUTES } from "./routes-audit.ts";
import { REVIEWING_ROUTES } from "./routes-reviewing.ts";
import { TOKEN_ROUTES } from "./routes-tokens.ts";
import type { RouteDoc } from "./declare.ts";

export const ROUTES: readonly RouteDoc[] = [...ACCESS_ROUTES, ...REVIEWING_ROUTES, ...ADMIN_ROUTES, ...TOKEN_ROUTES, ...AUDIT_ROUTES];
