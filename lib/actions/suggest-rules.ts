"use server";

import { actionOf } from "./define-action.ts";
import { suggestRulesOperation } from "./rule-operations.ts";

export const suggestRules = actionOf(suggestRulesOperation);
