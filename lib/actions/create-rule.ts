"use server";

import { actionOf } from "./define-action.ts";
import { createRuleOperation } from "./rule-operations.ts";

export const createRule = actionOf(createRuleOperation);
