"use server";

import { actionOf } from "./define-action.ts";
import { setServiceAccountDisabledOperation } from "./token-operations.ts";

export const setServiceAccountDisabled = actionOf(setServiceAccountDisabledOperation);
