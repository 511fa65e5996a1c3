/**
 * Each reviewer's email preference (notification_preferences): read and saved here, checked with
 * zod on the server whatever the browser sent. No row means the default, off (lib/notifications/modes.ts).
 */
import { z } from "zod";
import { databaseUrlFromEnv, getDb } from "../db/client.ts";
import { DEFAULT_EMAIL_MODE, EMAIL_MODES, isEmailMode, type EmailMode } from "./modes.ts";

export const notificationPreferenceInput = z
  .object({ email: z.enum(EMAIL_MODES, { error: `Email must be one of ${EMAIL_MODES.join(", ")}` }) })
  .strict();

export async function emailModeOf(userId: string, databaseUrl: string = databaseUrlFromEnv()): Promise<EmailMode> {
  const db = await getDb(databaseUrl);
  const row = await db.notificationPreference.findUnique({ where: { userId }, select: { email: true } });
  return row && isEmailMode(row.email) ? row.email : DEFAULT_EMAIL_MODE;
}

/** Saves the user's choice. The digest's schedule is kept: switching back and forth never mails twice within the hour. */
export async function setEmailMode(userId: string, email: EmailMode, databaseUrl: string = databaseUrlFromEnv()): Promise<EmailMode> {
  const db = await getDb(databaseUrl);
  const updatedAt = new Date();
  await db.notificationPreference.upsert({
    where: { userId },
    create: { userId, email, updatedAt },
    update: { email, updatedAt },
  });
  return email;
}
