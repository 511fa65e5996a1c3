"use server";

import { actionOf } from "./define-action.ts";
import { revokeOwnTokenOperation } from "./token-operations.ts";

export const revokeOwnToken = actionOf(revokeOwnTokenOperation);
