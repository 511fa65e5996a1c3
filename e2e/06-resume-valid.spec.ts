import { expect, requests, test } from "./fixtures.ts";
import { EMPTY_STATE, openRunsOf, totalLabel } from "./support/runs-page.ts";

test("a reviewer answers an input request with valid resume data", async ({ page, suspendRun, isPending }) => {
  const request = requests.shipping();
  const run = await suspendRun(request);
  const work = request.addresses.find((address) => address.label === "Work")!;

  await openRunsOf(page, run.resource);
  await expect(totalLabel(page, 1)).toBeVisible();
  await expect(page.getByText("Input requested", { exact: true }).first()).toBeVisible();
  await page.getByRole("link", { name: "chooseShippingAddress", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${run.runId}([?#]|$)`));

  // The suspend payload offers the addresses to choose from.
  for (const address of request.addresses) await expect(page.getByText(address.id).first()).toBeVisible();

  const resumeData = page.getByRole("textbox", { name: "Resume data" });
  const resume = page.getByRole("button", { name: "Resume", exact: true });
  await resumeData.fill(JSON.stringify({ addressId: work.id, note: "Leave it at the reception" }, null, 2));
  await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
  await expect(resume).toBeEnabled();
  await resume.click();

  await expect(page.getByRole("status").filter({ hasText: "Resumed." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Agent's answer" })).toBeVisible();
  await expect(page.getByText(`Order ${request.order} will ship to Work: ${work.line1}, ${work.city}.`)).toBeVisible();
  expect(await isPending(run)).toBe(false);

  await page.getByRole("link", { name: "Back to pending runs" }).click();
  await openRunsOf(page, run.resource);
  await expect(page.getByText(EMPTY_STATE)).toBeVisible();
});
