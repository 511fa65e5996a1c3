"use server";

import { notificationPreferenceInput, setEmailMode } from "../notifications/preferences.ts";
import { defineAction } from "./define-action.ts";

/** A reviewer's own email choice: only for themselves, and only for who may decide (support is never emailed). */
export const setNotificationPreference = defineAction(
  "setNotificationPreference",
  { permission: "decide", input: notificationPreferenceInput },
  async ({ email }, { actor }) => ({ email: await setEmailMode(actor.id, email) }),
);
