"use server";

import { actionOf } from "./define-action.ts";
import { deleteExpiryRuleOperation } from "./settings-operations.ts";

export const deleteExpiryRule = actionOf(deleteExpiryRuleOperation);
