/** What /api/admin/users* and /api/profile* answer, as zod schemas for the OpenAPI document (lib/openapi). */
import { z } from "zod";
import { EMAIL_MODES } from "../notifications/modes.ts";
import { LOCALES } from "../i18n/locales.ts";
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

export const languagePreferenceSchema = z.object({
  locale: z.enum(LOCALES).nullable().meta({ description: "null: the browser's." }),
  timeZone: z.string().nullable().meta({ description: "An IANA zone; null: the browser's." }),
});

export const profileSchema = z
  .object({ name: z.string(), email: z.string(), role: z.enum(ROLES).nullable(), ...languagePreferenceSchema.shape })
  .meta({ id: "Profile" });

export const notificationPreferenceSchema = z.object({
  email: z.enum(EMAIL_MODES),
  notified: z.boolean().meta({ description: "Whether the user is ever emailed: their role may decide." }),
  emailEnabled: z.boolean().meta({ description: "Whether this console sends email at all (SMTP_URL)." }),
});

export const emailModeSchema = z.object({ email: z.enum(EMAIL_MODES) });
