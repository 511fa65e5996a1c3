"use server";

import { actionOf } from "./define-action.ts";
import { createUserOperation } from "./user-operations.ts";

export const createUser = actionOf(createUserOperation);
