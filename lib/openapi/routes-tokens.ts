/** The OpenAPI declarations of API tokens and service accounts (routes.ts gathers every file's). */
import { z } from "zod";
import * as tokens from "../actions/token-operations.ts";
import { createdTokenSchema, serviceAccountSchema, tokenListSchema, tokenSchema } from "../auth/api-schemas.ts";
import { servedOperation, type RouteDoc } from "./declare.ts";

const SESSION_ONLY = "With a session only: a token cannot create tokens or service accounts.";

export const TOKEN_ROUTES: RouteDoc[] = [
  servedOperation(tokens.listTokensOperation, tokenListSchema, {
    method: "get",
    path: "/api/admin/tokens",
    tag: "API tokens",
    summary: "Every API token (never its secret) and every service account.",
  }),
  servedOperation(tokens.createTokenOperation, createdTokenSchema, {
    method: "post",
    path: "/api/admin/tokens",
    tag: "API tokens",
    summary: "A token for you or (serviceAccountId) for a service account; its secret is answered this once.",
    description: SESSION_ONLY,
    status: 201,
    errors: ["service_account_not_found"],
  }),
  servedOperation(tokens.revokeTokenOperation, tokenSchema, {
    method: "delete",
    path: "/api/admin/tokens/{id}",
    tag: "API tokens",
    summary: "Revokes any token, at once on every instance.",
    pathFields: { id: "id" },
    errors: ["token_not_found"],
  }),
  servedOperation(tokens.listServiceAccountsOperation, z.array(serviceAccountSchema), {
    method: "get",
    path: "/api/admin/service-accounts",
    tag: "API tokens",
    summary: "Every service account.",
  }),
  servedOperation(tokens.createServiceAccountOperation, serviceAccountSchema, {
    method: "post",
    path: "/api/admin/service-accounts",
    tag: "API tokens",
    summary: "A named principal for machines with a role of its own; give it tokens with POST /api/admin/tokens.",
    description: SESSION_ONLY,
    status: 201,
    errors: ["service_account_exists"],
  }),
  servedOperation(tokens.setServiceAccountDisabledOperation, serviceAccountSchema, {
    method: "patch",
    path: "/api/admin/service-accounts/{id}",
    tag: "API tokens",
    summary: "Disables a service account (its tokens are refused at once, on every instance) or enables it again.",
    description:
      "Asking for the state it is in changes nothing; disabledAt and disabledBy say who put it there. Enabling takes a session: a token cannot.",
    pathFields: { id: "id" },
    errors: ["service_account_not_found"],
  }),
  servedOperation(tokens.listOwnTokensOperation, z.array(tokenSchema), {
    method: "get",
    path: "/api/profile/tokens",
    tag: "API tokens",
    summary: "Your own API tokens (never their secrets).",
  }),
  servedOperation(tokens.createOwnTokenOperation, createdTokenSchema, {
    method: "post",
    path: "/api/profile/tokens",
    tag: "API tokens",
    summary: "A token that acts as you, never above your role; its secret is answered this once.",
    description: SESSION_ONLY,
    status: 201,
  }),
  servedOperation(tokens.revokeOwnTokenOperation, tokenSchema, {
    method: "delete",
    path: "/api/profile/tokens/{id}",
    tag: "API tokens",
    summary: "Revokes one of your own tokens.",
    pathFields: { id: "id" },
    errors: ["token_not_found"],
  }),
];
