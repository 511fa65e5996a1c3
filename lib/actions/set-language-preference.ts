"use server";

import { actionOf } from "./define-action.ts";
import { setLanguagePreferenceOperation } from "./user-operations.ts";

export const setLanguagePreference = actionOf(setLanguagePreferenceOperation);
