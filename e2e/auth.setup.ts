import { expect, test as setup } from "@playwright/test";
import { DEMO_ACCOUNTS } from "../lib/mastra/demo/accounts.ts";
import { REVIEWER_STATE } from "./support/env.ts";

/** Signs in through the sign-in page as the demo reviewer and keeps the session for the specs. */
setup("sign in as the demo reviewer", async ({ page }) => {
  const reviewer = DEMO_ACCOUNTS.find((account) => account.role === "reviewer")!;
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel("Email").fill(reviewer.email);
  await page.getByLabel("Password").fill(reviewer.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Pending runs" })).toBeVisible();
  await page.context().storageState({ path: REVIEWER_STATE });
});
