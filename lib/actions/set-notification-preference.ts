"use server";

import { actionOf } from "./define-action.ts";
import { setNotificationPreferenceOperation } from "./user-operations.ts";

export const setNotificationPreference = actionOf(setNotificationPreferenceOperation);
