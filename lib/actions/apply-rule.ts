"use server";

import { actionOf } from "./define-action.ts";
import { applyRuleOperation } from "./rule-operations.ts";

export const applyRule = actionOf(applyRuleOperation);
