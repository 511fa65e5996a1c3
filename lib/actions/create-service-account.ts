"use server";

import { actionOf } from "./define-action.ts";
import { createServiceAccountOperation } from "./token-operations.ts";

export const createServiceAccount = actionOf(createServiceAccountOperation);
