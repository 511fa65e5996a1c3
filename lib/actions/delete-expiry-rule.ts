"use server";

import { deleteExpiryRule as remove, expiryRuleKey } from "../settings/expiry-rules.ts";
import { AppError } from "../errors.ts";
import { defineAction } from "./define-action.ts";

export const deleteExpiryRule = defineAction("deleteExpiryRule", { permission: "configure", input: expiryRuleKey }, async (key) => {
  if (!(await remove(key))) throw new AppError("invalid_input", "There is no such rule (anymore).");
  return key;
});
