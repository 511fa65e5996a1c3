"use server";

import { changeRole, setRoleInput } from "../auth/users.ts";
import { defineAction } from "./define-action.ts";

export const setUserRole = defineAction(
  "setUserRole",
  { permission: "manageUsers", input: setRoleInput },
  async ({ userId, role }, { actor }) => changeRole(userId, role, { actorId: actor.id }),
);
