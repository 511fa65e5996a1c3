"use server";

import { assignThread as assign, assignThreadInput } from "../assignments/assignments.ts";
import { defineAction } from "./define-action.ts";

/** Takes a whole thread (its waiting calls and those to come), assigns it to someone, or with null unassigns it. */
export const assignThread = defineAction("assignThread", { permission: "decide", input: assignThreadInput }, (target, { actor }) =>
  assign(target, actor),
);
