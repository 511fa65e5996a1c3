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
  // The editor starts from a skeleton that cannot be sent: the required field is still empty (null),
  // Resume is off with the reason beside it, and nothing is red before the reviewer typed.
  expect(JSON.parse(await resumeData.inputValue())).toEqual({ addressId: null });
  await expect(resume).toBeDisabled();
  await expect(page.getByText("Resume is off until the data is complete: addressId is required")).toBeVisible();
  await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
  // The addresses the request lists are offered for addressId; one click fills the field.
  const suggestions = page.getByRole("group", { name: "Suggestions for addressId" });
  for (const address of request.addresses)
    await expect(suggestions.getByRole("button", { name: new RegExp(`^${address.id}`) })).toBeVisible();
  await suggestions.getByRole("button", { name: `${work.id} (${work.label})` }).click();
  expect(JSON.parse(await resumeData.inputValue())).toEqual({ addressId: work.id });
  await expect(resume).toBeEnabled();
  await expect(page.getByText(/Resume is off/)).toHaveCount(0);

  await resumeData.fill(JSON.stringify({ addressId: work.id, note: "Leave it at the reception" }, null, 2));
  await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
  await expect(resume).toBeEnabled();
  await resume.click();

  await expect(page.getByRole("status").filter({ hasText: "Resumed." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Agent's answer" })).toBeVisible();
  await expect(page.getByText("Resumed by you — the agent continued and finished the run.")).toBeVisible();
  await expect(page.getByText(`Order ${request.order} will ship to Work: ${work.line1}, ${work.city}.`)).toBeVisible();
  expect(await isPending(run)).toBe(false);

  await page.getByRole("link", { name: "Back to pending runs" }).click();
  await openRunsOf(page, run.resource);
  await expect(page.getByText(EMPTY_STATE)).toBeVisible();
});
