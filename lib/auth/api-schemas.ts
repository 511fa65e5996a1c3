/** What /api/admin/users*, the tokens and service accounts answer, as zod schemas for the OpenAPI document (lib/openapi). */
import { z } from "zod";
import { ROLES } from "./roles.ts";
import { SCOPES } from "./token-scopes.ts";

export const accountSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.string().nullable().meta({ description: "admin, reviewer or support." }),
    banned: z.boolean().nullable(),
    createdAt: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "Account", description: "An account, never its password." });

export const createdAccountSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  password: z.string().optional().meta({ description: "Generated when none was sent, and answered this once." }),
});

export const roleChangeSchema = z.object({ userId: z.string(), role: z.enum(ROLES) });

/** What /api/admin/tokens, /api/admin/service-accounts and /api/profile/tokens answer (token-dto.ts). */
export const tokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: "The token's first characters: how logs and lists name it." }),
    scopes: z.array(z.enum(SCOPES)),
    owner: z.object({ kind: z.enum(["user", "service"]), id: z.string(), label: z.string() }),
    createdBy: z.string(),
    createdAt: z.string().meta({ format: "date-time" }),
    expiresAt: z.string().meta({ format: "date-time" }).nullable(),
    revokedAt: z.string().meta({ format: "date-time" }).nullable(),
    revokedBy: z.string().nullable().meta({ description: "Who revoked it: the first to ask, when several asked at once." }),
    lastUsedAt: z.string().meta({ format: "date-time" }).nullable(),
    lastUsedAddress: z.string().nullable(),
    status: z
      .enum(["active", "revoked", "expired", "disabled"])
      .meta({ description: "disabled: its service account is disabled; it works again once the account is enabled." }),
  })
  .meta({ id: "ApiToken", description: "An API token, never its secret." });

export const createdTokenSchema = tokenSchema
  .extend({ token: z.string().meta({ description: "The secret, answered this once: only its hash is stored." }) })
  .meta({ id: "CreatedApiToken" });

export const serviceAccountSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    createdBy: z.string(),
    createdAt: z.string().meta({ format: "date-time" }),
    disabledAt: z
      .string()
      .meta({ format: "date-time", description: "Set while it is disabled: its tokens are refused (401) until it is enabled." })
      .nullable(),
    disabledBy: z.string().nullable(),
  })
  .meta({ id: "ServiceAccount", description: "A named principal for machines, with a role of its own." });

export const tokenListSchema = z.object({ tokens: z.array(tokenSchema), serviceAccounts: z.array(serviceAccountSchema) });
