"use server";

import { assignCall, assignCallInput } from "../assignments/assignments.ts";
import { defineAction } from "./define-action.ts";

/** "Assign to me" on one call, an admin's "Assign to…", or null to unassign (lib/assignments decides who may). */
export const assignToolCall = defineAction("assignToolCall", { permission: "decide", input: assignCallInput }, (target, { actor }) =>
  assignCall(target, actor),
);
