"use server";

import { z } from "zod";
import { listAssignableUsers as list } from "../assignments/assignments.ts";
import { defineAction } from "./define-action.ts";

/** The people an admin can assign a call to: everyone whose role may decide. */
export const listAssignableUsers = defineAction("listAssignableUsers", { permission: "assignOthers", input: z.object({}).strict() }, () =>
  list(),
);
