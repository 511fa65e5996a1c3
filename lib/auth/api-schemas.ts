/** What /api/admin/users* answer, as zod schemas for the OpenAPI document (lib/openapi). */
import { z } from "zod";
import { ROLES } from "./roles.ts";

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
