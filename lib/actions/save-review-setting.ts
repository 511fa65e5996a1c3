"use server";

import { actionOf } from "./define-action.ts";
import { saveReviewSettingOperation } from "./settings-operations.ts";

export const saveReviewSetting = actionOf(saveReviewSettingOperation);
