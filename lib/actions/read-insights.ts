"use server";

import { actionOf } from "./define-action.ts";
import { readInsightsOperation } from "./insights-operations.ts";

export const readInsights = actionOf(readInsightsOperation);
