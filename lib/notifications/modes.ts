/**
 * The email choices a reviewer has (the profile page). Browser-safe, free of zod and the database:
 * the profile form lists them from here. Without a saved choice it is `off`: email is opt-in.
 */
export const EMAIL_MODES = ["immediate", "hourly", "off"] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

export const DEFAULT_EMAIL_MODE: EmailMode = "off";

export const EMAIL_MODE_LABELS: Record<EmailMode, { label: string; detail: string }> = {
  immediate: { label: "Right away", detail: "One email per call, as soon as it starts waiting (or is assigned to you)." },
  hourly: { label: "Hourly digest", detail: "At most one email an hour, listing every call that started waiting since the last one." },
  off: { label: "Off", detail: "No email. You see waiting calls in the console." },
};

export const isEmailMode = (value: unknown): value is EmailMode =>
  typeof value === "string" && (EMAIL_MODES as readonly string[]).includes(value);
