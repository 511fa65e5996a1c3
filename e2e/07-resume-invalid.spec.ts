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
  // Nothing red before the reviewer typed, though the skeleton is incomplete.
  await expect(resume).toBeDisabled();
  await expect(alert).toHaveCount(0);

  // Problems in words, the JSON's with line and column (the same words the server uses).
  await resumeData.fill('{\n  "addressId": ');
  await expect(alert).toContainText("This is not valid JSON (line 2, column 16): the text ends where a value was expected");
  await expect(resume).toBeDisabled();

  await resumeData.fill('{\n  "addressId": foo\n}');
  await expect(alert).toContainText('This is not valid JSON (line 2, column 16): unexpected "f"; text values need double quotes');
  await expect(alert).not.toContainText("Unexpected token");

  await resumeData.fill('{"addressId": 42}');
  await expect(alert).toBeVisible();
  await expect(alert).not.toContainText("not valid JSON");
  await expect(alert).toContainText("addressId must be a string (text in double quotes), not a number");
  await expect(resume).toBeDisabled();

  await resumeData.fill('{"note": "x"}');
  await expect(alert).toContainText("addressId is required");
  await expect(alert).not.toContainText("Invalid input");
  await expect(page.getByText("Resume is off until the data is complete: addressId is required")).toBeVisible();
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
