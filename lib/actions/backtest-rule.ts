"use server";

import { actionOf } from "./define-action.ts";
import { backtestRuleOperation } from "./rule-operations.ts";

export const backtestRule = actionOf(backtestRuleOperation);
