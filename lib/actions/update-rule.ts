"use server";

import { actionOf } from "./define-action.ts";
import { updateRuleOperation } from "./rule-operations.ts";

export const updateRule = actionOf(updateRuleOperation);
