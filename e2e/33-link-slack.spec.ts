import { expect, test } from "./fixtures.ts";

// The stored session is a reviewer's: Link Slack on /profile gives a one-time code for the Slack app.
test("a reviewer gets a one-time code to link Slack, a new one replacing the last", async ({ page }) => {
  await page.goto("/profile");
  const slack = page.getByRole("region", { name: "Slack" });
  await expect(slack).toContainText("Not linked");
  await slack.getByRole("button", { name: "Link Slack" }).click();
  const code = slack.getByTestId("slack-link-code");
  await expect(code).toHaveText(/^\/approvals link [A-Z2-9]{10}$/);
  const first = await code.textContent();
  await slack.getByRole("button", { name: "Link Slack" }).click();
  await expect(code).not.toHaveText(first!);
  await expect(slack).toContainText("It works once, until");
});
