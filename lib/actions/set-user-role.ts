"use server";

import { actionOf } from "./define-action.ts";
import { setUserRoleOperation } from "./user-operations.ts";

export const setUserRole = actionOf(setUserRoleOperation);
