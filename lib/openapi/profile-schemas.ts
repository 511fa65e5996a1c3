/**
 * What /api/profile and /api/profile/notifications answer, as zod schemas: the profile spans
 * lib/auth, lib/i18n and lib/notifications (which import each other one way only), so it lives
 * with the document rather than in one of them.
 */
import { z } from "zod";
import { ROLES } from "../auth/roles.ts";
import { LOCALES } from "../i18n/locales.ts";
import { EMAIL_MODES } from "../notifications/modes.ts";

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
