"use server";

import { actionOf } from "./define-action.ts";
import { dryRunRuleOperation } from "./rule-operations.ts";

export const dryRunRule = actionOf(dryRunRuleOperation);
