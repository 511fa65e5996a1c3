import { expect, requests, test } from "./fixtures.ts";
import { openRunsOf, runLink, totalLabel } from "./support/runs-page.ts";

test("invalid JSON and schema mismatches are caught before anything is sent", async ({ page, suspendRun, isPending }) => {
  const request = requests.shipping();
  const run = await suspendRun(request);

  await page.goto(`/runs/${run.runId}`);
  const resumeData = page.getByRole("textbox", { name: "Resume data" });
  const resume = page.getByRole("button", { name: "Resume", exact: true });
  // Scoped to main: Next's route announcer is an (empty) role="alert" too.
  const alert = page.getByRole("main").getByRole("alert");
  await expect(resumeData).toBeVisible();

  await resumeData.fill('{"addressId": ');
  await expect(alert).toContainText("Invalid JSON");
  await expect(resume).toBeDisabled();

  await resumeData.fill('{"addressId": 42}');
  await expect(alert).toBeVisible();
  await expect(alert).not.toContainText("Invalid JSON");
  await expect(alert).toContainText(/addressId|string/i);
  await expect(resume).toBeDisabled();

  await resumeData.fill("{}");
  await expect(alert).toContainText(/addressId|required/i);
  await expect(resume).toBeDisabled();

  // Force the issue: a click on the disabled button and Enter in the textarea send nothing.
  await resume.click({ force: true }).catch(() => {});
  await resumeData.press("Control+Enter");

  // Valid data clears the error and enables Resume (not clicked).
  await resumeData.fill(JSON.stringify({ addressId: request.addresses[0]!.id }));
  await expect(alert).toHaveCount(0);
  await expect(resume).toBeEnabled();
  await resumeData.fill('{"addressId": ');
  await expect(resume).toBeDisabled();

  // Nothing was sent: the run still waits, in the store and in the console.
  await page.waitForTimeout(500);
  expect(await isPending(run)).toBe(true);
  await page.reload();
  await expect(page.getByText("This run is not waiting anymore")).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Resume data" })).toBeVisible();
  await openRunsOf(page, run.resource);
  await expect(totalLabel(page, 1)).toBeVisible();
  await expect(runLink(page, run.runId).or(page.getByRole("button", { name: `Expand thread ${run.thread}` }))).toBeVisible();
});
