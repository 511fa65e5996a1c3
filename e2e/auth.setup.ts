import { expect, test as setup } from "@playwright/test";
import { REVIEWER_STATE } from "./support/env.ts";
import { demoAccount, loginThroughForm } from "./support/users.ts";

/** Signs in through the sign-in page as the demo reviewer and keeps the session for the specs. */
setup("sign in as the demo reviewer", async ({ page }) => {
  await loginThroughForm(page, demoAccount("reviewer"));
  await expect(page.getByRole("heading", { name: "Pending runs" })).toBeVisible();
  await page.context().storageState({ path: REVIEWER_STATE });
});
