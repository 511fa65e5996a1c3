import { expect, requests, test } from "./fixtures.ts";
import { callDetail, callRow, focusedCallRow, screenshotIfAsked } from "./support/queue-page.ts";
import { openRunsOf, resourceFilter, totalLabel } from "./support/runs-page.ts";

/** After the page loads, only the keyboard: no click, no mouse. */
test("a reviewer clears the queue with the keyboard alone", async ({ page, suspendRun, testResource, effectsOf, isPending }) => {
  const first = await suspendRun(requests.refund({ amount: "31.00", currency: "EUR" }));
  const second = await suspendRun(requests.refund({ amount: "32.00", currency: "EUR" }));
  const declined = await suspendRun(requests.refund({ amount: "33.00", currency: "EUR" }));
  const shipping = requests.shipping();
  const resumed = await suspendRun({ ...shipping, resource: testResource });
  const home = shipping.addresses.find((address) => address.label === "Home")!;

  await openRunsOf(page, testResource);
  await expect(totalLabel(page, 4)).toBeVisible();
  const keys = page.keyboard;

  // ? opens the shortcut list, a real modal dialog; Escape closes it. The server-rendered list shows
  // before the page hydrates and listens to keys: a key pressed before that is lost, so press again.
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(async () => {
    if (!(await help.isVisible())) await keys.press("?");
    await expect(help).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(help).toHaveAttribute("aria-modal", "true");
  await expect(help.getByText("Next call")).toBeVisible();
  await screenshotIfAsked(page, "queue-shortcuts");
  await keys.press("j"); // inside the dialog: nothing moves behind it
  await keys.press("Escape");
  await expect(help).toBeHidden();
  await expect(focusedCallRow(page)).toHaveCount(0);

  // / focuses the first filter; Escape goes back to the calls.
  await keys.press("/");
  await expect(resourceFilter(page)).toBeFocused();
  await keys.press("Escape");
  await expect(callRow(page, first)).toBeFocused();

  // a opens the current call with Approve focused; a again approves it; the next call becomes current.
  await keys.press("a");
  const firstApprove = callDetail(page, first).getByRole("button", { name: "Approve", exact: true });
  await expect(firstApprove).toBeFocused();
  await expect(firstApprove).toHaveAttribute("aria-keyshortcuts", "A");
  await keys.press("a");
  await expect(callDetail(page, first).getByRole("status")).toContainText("Approved — the agent continued");
  await expect(callRow(page, second)).toBeFocused();
  await expect(callRow(page, first)).toHaveCount(0);

  // j / k move; Enter opens and closes.
  await keys.press("j");
  await expect(callRow(page, declined)).toBeFocused();
  await keys.press("k");
  await expect(callRow(page, second)).toBeFocused();
  await keys.press("Enter");
  await expect(callDetail(page, second).getByRole("group", { name: "Arguments of issueRefund" })).toBeVisible();
  await keys.press("a");
  await expect(callDetail(page, second).getByRole("status")).toContainText("Approved — the agent continued");
  await expect(callRow(page, declined)).toBeFocused();

  // d opens the call and focuses the reason; Enter there declines.
  await keys.press("d");
  const reason = callDetail(page, declined).getByRole("textbox", { name: "Reason (optional)" });
  await expect(reason).toBeFocused();
  await keys.type("Not eligible: outside the refund window");
  await keys.press("Enter");
  await expect(callDetail(page, declined).getByRole("status")).toContainText("Declined — the agent continued");
  await expect(callRow(page, resumed)).toBeFocused();

  // r focuses the resume data editor; Ctrl+Enter sends it.
  await keys.press("r");
  const editor = callDetail(page, resumed).getByRole("textbox", { name: "Resume data" });
  await expect(editor).toBeFocused();
  await keys.press("ControlOrMeta+a");
  await keys.type(JSON.stringify({ addressId: home.id }));
  await keys.press("Control+Enter");
  await expect(callDetail(page, resumed).getByRole("status")).toContainText("Resumed — the agent continued");

  await expect(page.getByText("No pending tool calls match these filters")).toBeVisible();
  expect([await effectsOf(first), await effectsOf(second), await effectsOf(declined), await effectsOf(resumed)]).toEqual([1, 1, 0, 1]);
  for (const run of [first, second, declined, resumed]) expect(await isPending(run)).toBe(false);
});

test("x selects the current call; input requests cannot be selected for a bulk decision", async ({ page, suspendRun, testResource }) => {
  const refund = await suspendRun(requests.refund({ amount: "34.00", currency: "EUR" }));
  const resumed = await suspendRun({ ...requests.shipping(), resource: testResource });
  await openRunsOf(page, testResource);
  await expect(totalLabel(page, 2)).toBeVisible();

  await page.keyboard.press("j");
  await expect(callRow(page, refund)).toBeFocused();
  await page.keyboard.press("x");
  await expect(callRow(page, refund).getByRole("checkbox")).toBeChecked();
  await expect(page.getByText("1 selected", { exact: true })).toBeVisible();
  await page.keyboard.press("j");
  await page.keyboard.press("x");
  const unselectable = callRow(page, resumed).getByRole("checkbox");
  await expect(unselectable).toBeDisabled();
  await expect(unselectable).toHaveAttribute("title", /cannot be decided in bulk/);
  await expect(page.getByText("1 selected", { exact: true })).toBeVisible();
});
