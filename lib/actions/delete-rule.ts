"use server";

import { actionOf } from "./define-action.ts";
import { deleteRuleOperation } from "./rule-operations.ts";

export const deleteRule = actionOf(deleteRuleOperation);
