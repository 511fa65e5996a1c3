"use server";

import { headers } from "next/headers";
import { setRole, setRoleInput } from "../auth/users.ts";
import { AppError } from "../errors.ts";
import { defineAction } from "./define-action.ts";

export const setUserRole = defineAction(
  "setUserRole",
  { permission: "manageUsers", input: setRoleInput },
  async ({ userId, role }, { actor }) => {
    if (userId === actor.id && role !== "admin") {
      throw new AppError("invalid_input", "You cannot remove your own admin role: ask another admin.");
    }
    await setRole(userId, role, { asRequest: await headers() });
    return { userId, role };
  },
);
