"use server";

import { actionOf } from "./define-action.ts";
import { acceptSuggestedRuleOperation } from "./rule-operations.ts";

export const acceptSuggestedRule = actionOf(acceptSuggestedRuleOperation);
