/**
 * Each user's language and time zone (auth_users.locale, auth_users.timeZone), chosen on /profile
 * and checked with zod on the server whatever the browser sent. Null means "the browser's":
 * Accept-Language for the language, the browser's own zone (a cookie it sets) for the time zone.
 */
import { z } from "zod";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { isLocale, LOCALES, type Locale } from "./locales.ts";
import { isTimeZone } from "./time-zones.ts";

export interface LanguagePreference {
  locale: Locale | null;
  timeZone: string | null;
}

/**
 * The empty string is the form's "the browser's" choice. The form sends both fields; a script
 * (PATCH /api/profile) may send one, and the other stays as it was.
 */
export const languagePreferenceInput = z
  .object({
    locale: z.union([z.enum(LOCALES), z.literal("")], { error: `Language must be one of ${LOCALES.join(", ")}, or empty` }).optional(),
    timeZone: z
      .string({ error: "Time zone must be an IANA time zone, or empty" })
      .max(64)
      .refine((value) => value === "" || isTimeZone(value), { error: "Time zone must be an IANA time zone, or empty" })
      .optional(),
  })
  .strict()
  .refine((input) => input.locale !== undefined || input.timeZone !== undefined, { error: "Send locale, timeZone or both." });

export async function languagePreferenceOf(userId: string, databaseUrl: string = databaseUrlFromEnv()): Promise<LanguagePreference> {
  const db = await getDb(databaseUrl);
  return storedLanguagePreference(await db.user.findUnique({ where: { id: userId }, select: { locale: true, timeZone: true } }));
}

/** A user's stored columns as a choice: a value the console does not know (any more) reads as none. */
export function storedLanguagePreference(row: { locale?: string | null; timeZone?: string | null } | null | undefined): LanguagePreference {
  return {
    locale: isLocale(row?.locale) ? row.locale : null,
    timeZone: isTimeZone(row?.timeZone) ? row.timeZone : null,
  };
}

/** Several users at once (the notification worker mails many): a missing user reads as no choice. */
export async function languagePreferencesOf(
  userIds: string[],
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<Map<string, LanguagePreference>> {
  const db = await getDb(databaseUrl);
  const rows = userIds.length
    ? await db.user.findMany({ where: { id: { in: [...new Set(userIds)] } }, select: { id: true, locale: true, timeZone: true } })
    : [];
  return new Map(rows.map((row) => [row.id, storedLanguagePreference(row)]));
}

/** Sets what `input` names; answers the user's whole choice as it now is. */
export async function setLanguagePreference(
  userId: string,
  input: z.output<typeof languagePreferenceInput>,
  databaseUrl: string = databaseUrlFromEnv(),
): Promise<LanguagePreference> {
  const db = await getDb(databaseUrl);
  const changes = {
    ...(input.locale === undefined ? {} : { locale: input.locale || null }),
    ...(input.timeZone === undefined ? {} : { timeZone: input.timeZone || null }),
  };
  return storedLanguagePreference(await db.user.update({ where: { id: userId }, data: changes, select: { locale: true, timeZone: true } }));
}
