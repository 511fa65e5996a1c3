"use server";

import { actionOf } from "./define-action.ts";
import { createTokenOperation } from "./token-operations.ts";

export const createToken = actionOf(createTokenOperation);
