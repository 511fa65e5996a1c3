import { expect, requests, test } from "./fixtures.ts";
import { ADMIN_PAGES, expectNoSidewaysScroll, expectThumbTarget, PHONE } from "./support/phone.ts";
import { callDetail, callRow, screenshotIfAsked } from "./support/queue-page.ts";
import { openRunsOf } from "./support/runs-page.ts";
import { apiLogin, demoAccount } from "./support/users.ts";

// A 390 × 844 touch screen: every page scrolls only downwards, and a call is decided by tapping.
test.use(PHONE);

test("on a phone a reviewer filters, opens a call and approves it by tapping, with nothing wider than the screen", async ({
  page,
  suspendRun,
  testResource,
  isPending,
}) => {
  const approved = await suspendRun(requests.refund({ amount: "21.00", currency: "EUR" }));
  const other = await suspendRun(requests.refund({ amount: "22.00", currency: "EUR" }));

  await openRunsOf(page, testResource);
  await expect(callRow(page, approved)).toBeVisible();
  await expectNoSidewaysScroll(page, "the queue");
  await screenshotIfAsked(page, "phone-queue");

  // The filters fold under one button that counts them (the resource here).
  const filters = page.getByRole("button", { name: "Filters (1)" });
  await expect(filters).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByLabel("Resource ID")).toBeHidden();
  await expectThumbTarget(filters, "the Filters button");
  await filters.tap();
  await expect(filters).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByLabel("Resource ID")).toHaveValue(testResource);
  await expectNoSidewaysScroll(page, "the queue with its filters open");
  await screenshotIfAsked(page, "phone-queue-filters");
  await filters.tap();
  await expect(page.getByLabel("Resource ID")).toBeHidden();

  // Each call is a card: tool, kind, agent, wait and what the agent was asked.
  const row = callRow(page, approved);
  await expect(row.getByRole("link", { name: "issueRefund" })).toBeVisible();
  await expect(row.getByText("Approval", { exact: true })).toBeVisible();
  await expect(row.locator("[data-request-excerpt]")).toBeVisible();
  const open = row.getByRole("button", { name: /^Open issueRefund/ });
  await expectThumbTarget(open, "a call's open button");

  await open.tap();
  const detail = callDetail(page, approved);
  await expect(detail.getByRole("group", { name: "Arguments of issueRefund" })).toBeVisible();
  const approve = detail.getByRole("button", { name: "Approve", exact: true });
  const decline = detail.getByRole("button", { name: "Decline", exact: true });
  // Opening a call brings its decision on screen: Approve needs no scrolling to find.
  await expect(approve).toBeInViewport({ ratio: 1 });
  expect(await detail.innerText()).not.toContain("Enter");
  await expectThumbTarget(approve, "Approve");
  await expectThumbTarget(decline, "Decline");
  // Reachable by thumb: right under the arguments, before the conversation and the tool's description.
  const buttonsTop = (await approve.boundingBox())!.y;
  const conversationTop = (await detail.getByRole("region", { name: "Conversation" }).boundingBox())!.y;
  expect(buttonsTop).toBeLessThan(conversationTop);
  await expectNoSidewaysScroll(page, "an opened call");
  await screenshotIfAsked(page, "phone-call-open");

  await approve.tap();
  await expect(detail.getByRole("status")).toContainText("Approved — the agent continued");
  await expect(page.getByTestId("decision-announcer")).toHaveText("Approved issueRefund");
  await expect.poll(() => isPending(approved)).toBe(false);

  // The run page a notification links to: the arguments, then Approve / Decline on the first screen, before the rest.
  await page.goto(`/runs/${other.runId}`);
  await expect(page.getByRole("heading", { level: 2, name: "issueRefund" })).toBeVisible();
  const approveOnPage = page.getByRole("button", { name: "Approve", exact: true });
  await expect(page.getByRole("region", { name: "Conversation" })).toContainText("Request: full refund");
  const argumentsBox = (await page.getByRole("group", { name: "Arguments of issueRefund" }).boundingBox())!;
  const approveBox = (await approveOnPage.boundingBox())!;
  expect(approveBox.y + approveBox.height, "Approve is below the first screen").toBeLessThanOrEqual(PHONE.viewport.height);
  expect(argumentsBox.y).toBeLessThan(approveBox.y);
  expect(approveBox.y).toBeLessThan((await page.getByRole("region", { name: "Conversation" }).boundingBox())!.y);
  expect(approveBox.y).toBeLessThan((await page.getByRole("term").filter({ hasText: "Run ID" }).boundingBox())!.y);
  await expectThumbTarget(page.getByRole("button", { name: "Approve", exact: true }), "Approve on the run page");
  await expectThumbTarget(page.getByRole("button", { name: "Decline", exact: true }), "Decline on the run page");
  await expectNoSidewaysScroll(page, "the run page");
  await screenshotIfAsked(page, "phone-run-page");

  await page.goto("/history");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoSidewaysScroll(page, "the history");
  await screenshotIfAsked(page, "phone-history");

  await page.goto("/profile");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoSidewaysScroll(page, "the profile");
});

test("on a touch screen no hint speaks of Enter: not the decline reason's, not the resume editor's, in the queue or on a run page", async ({
  page,
  suspendRun,
  testResource,
}) => {
  const approval = await suspendRun(requests.refund({ amount: "23.00", currency: "EUR" }));
  const input = await suspendRun(requests.shipping());
  await openRunsOf(page, testResource);
  expect(await page.evaluate(() => matchMedia("(pointer: coarse)").matches), "the browser is a touch screen").toBe(true);
  await callRow(page, approval)
    .getByRole("button", { name: /^Open issueRefund/ })
    .tap();
  await callRow(page, input)
    .getByRole("button", { name: /^Open chooseShippingAddress/ })
    .tap();
  await expect(callDetail(page, approval).getByRole("textbox", { name: "Reason (optional)" })).toBeVisible();
  await expect(callDetail(page, input).getByRole("textbox", { name: "Resume data" })).toBeVisible();
  // What is shown (innerText), not what the markup holds for a keyboard.
  expect(await page.getByRole("main").innerText()).not.toContain("Enter");

  for (const run of [approval, input]) {
    await page.goto(`/runs/${run.runId}`);
    await expect(page.getByRole("button", { name: /^(Approve|Resume)$/ }).first()).toBeVisible();
    expect(await page.getByRole("main").innerText()).not.toContain("Enter");
  }
});

test("on a phone the header folds into a Menu that opens, leads to a page and closes", async ({ page }) => {
  await page.goto("/");
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expectThumbTarget(menu, "the Menu button");
  await expect(page.getByRole("link", { name: "History" })).toBeHidden();
  await menu.tap();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await expectNoSidewaysScroll(page, "the queue with its menu open");
  await screenshotIfAsked(page, "phone-menu");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "History" }).tap();
  await expect(page).toHaveURL(/\/history$/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeHidden();
});

test("on a phone the sign-in page and every admin page fit the screen", async ({ browser, baseURL }) => {
  const anonymous = await browser.newContext({ ...PHONE, storageState: { cookies: [], origins: [] } });
  const signIn = await anonymous.newPage();
  await signIn.goto("/sign-in");
  await expect(signIn.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expectNoSidewaysScroll(signIn, "sign-in");
  await screenshotIfAsked(signIn, "phone-sign-in");

  await apiLogin(anonymous, demoAccount("admin"), baseURL!);
  for (const path of ADMIN_PAGES) {
    await signIn.goto(path);
    await expect(signIn.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSidewaysScroll(signIn, path);
    await screenshotIfAsked(signIn, `phone-${path.slice(1).replace("/", "-")}`);
  }
  await anonymous.close();
});
