"use server";

import { actionOf } from "./define-action.ts";
import { revokeTokenOperation } from "./token-operations.ts";

export const revokeToken = actionOf(revokeTokenOperation);
