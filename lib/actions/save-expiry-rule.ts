"use server";

import { actionOf } from "./define-action.ts";
import { saveExpiryRuleOperation } from "./settings-operations.ts";

export const saveExpiryRule = actionOf(saveExpiryRuleOperation);
