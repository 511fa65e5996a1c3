"use server";

import { actionOf } from "./define-action.ts";
import { createOwnTokenOperation } from "./token-operations.ts";

export const createOwnToken = actionOf(createOwnTokenOperation);
