/** The conformance test's calls of the API token and service account routes (conformance.test.ts). */
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { checkedApi } from "./checked-api.ts";

type Api = Awaited<ReturnType<typeof checkedApi>>;

export async function callTokenRoutes(api: Api, cookies: Record<"admin" | "reviewer" | "support", string>): Promise<void> {
  const cookie = cookies.admin;
  const account = await api.call("POST", "/api/admin/service-accounts", { cookie, body: { name: "ci-bot", role: "reviewer" } });
  expect(account.status).toBe(201);
  expect((await api.call("POST", "/api/admin/service-accounts", { cookie, body: { name: "ci-bot", role: "reviewer" } })).status).toBe(409);
  expect((await api.call("GET", "/api/admin/service-accounts", { cookie })).body.data).toHaveLength(1);
  const created = await api.call("POST", "/api/admin/tokens", {
    cookie,
    body: { name: "ci", scopes: ["queue:read"], serviceAccountId: account.body.data.id },
  });
  expect(created.status).toBe(201);
  const bearer = { authorization: `Bearer ${created.body.data.token}` };
  expect((await api.call("GET", "/api/queue", { headers: bearer })).status).toBe(200);
  // A token cannot create tokens, and a read-only one cannot decide.
  expect((await api.call("POST", "/api/admin/tokens", { headers: bearer, body: { name: "x", scopes: ["queue:read"] } })).status).toBe(403);
  expect((await api.call("GET", "/api/admin/tokens", { cookie })).body.data.tokens).toHaveLength(1);
  // Disabled, its token is refused; enabled again, it works.
  const accountPath = { cookie, params: { id: account.body.data.id } };
  expect(
    (await api.call("PATCH", "/api/admin/service-accounts/{id}", { ...accountPath, body: { disabled: true } })).body.data,
  ).toMatchObject({
    disabledAt: expect.any(String),
  });
  expect((await api.call("GET", "/api/queue", { headers: bearer })).status).toBe(401);
  expect(
    (await api.call("PATCH", "/api/admin/service-accounts/{id}", { ...accountPath, body: { disabled: false } })).body.data,
  ).toMatchObject({
    disabledAt: null,
  });
  expect((await api.call("GET", "/api/queue", { headers: bearer })).status).toBe(200);
  const unknownAccount = { cookie, params: { id: randomUUID() }, body: { disabled: true } };
  expect((await api.call("PATCH", "/api/admin/service-accounts/{id}", unknownAccount)).status).toBe(404);
  const own = await api.call("POST", "/api/profile/tokens", { cookie: cookies.support, body: { name: "mine", scopes: ["queue:read"] } });
  expect(own.status).toBe(201);
  expect((await api.call("GET", "/api/profile/tokens", { cookie: cookies.support })).body.data).toHaveLength(1);
  const revokedOwn = await api.call("DELETE", "/api/profile/tokens/{id}", {
    cookie: cookies.support,
    params: { id: own.body.data.id },
    body: {},
  });
  expect(revokedOwn.body.data.status).toBe("revoked");
  const revoked = await api.call("DELETE", "/api/admin/tokens/{id}", { cookie, params: { id: created.body.data.id }, body: {} });
  expect(revoked.body.data.status).toBe("revoked");
  expect((await api.call("GET", "/api/queue", { headers: bearer })).status).toBe(401);
  expect((await api.call("DELETE", "/api/admin/tokens/{id}", { cookie, params: { id: randomUUID() }, body: {} })).status).toBe(404);
}
