import { expect, test } from "./fixtures.ts";
import { EMPTY_STATE, resourceFilter, runIdsAfterLoad, threadIdsOnPage, threadToggle, urlParam } from "./support/runs-page.ts";

test("a reviewer filters the pending runs by a customer's resource id", async ({ page, listRuns }) => {
  const customer = "cust_1003";
  const expected = await listRuns({ resourceId: customer });
  expect(expected.total, "the seeded backlog has runs for this customer").toBeGreaterThan(0);
  expect(expected.total, "all of them fit on the default page of 20").toBeLessThanOrEqual(20);

  await page.goto("/");
  await resourceFilter(page).fill(customer);

  // The text filter lands in the URL (debounced) and the list follows it.
  await expect(page).toHaveURL(urlParam("resourceId", customer));
  const shown = await runIdsAfterLoad(page, expected.total);
  expect(shown.sort()).toEqual(expected.runs.map((run) => run.runId).sort());

  // Every thread row is one of this customer's threads, and no other customer appears.
  const expectedThreads = [...new Set(expected.runs.map((run) => run.threadId))].sort();
  expect((await threadIdsOnPage(page)).sort()).toEqual(expectedThreads);
  for (const threadId of expectedThreads) {
    await expect(page.getByRole("row").filter({ has: threadToggle(page, threadId!) })).toContainText(customer);
  }
  const text = await page.locator("body").innerText();
  expect(text).toContain(customer);
  expect(text.match(/cust_\d{4}/g)?.filter((id) => id !== customer) ?? []).toEqual([]);
});

test("a reviewer narrows the list to a day range and resets it", async ({ page, listRuns }) => {
  const customer = "cust_1003";
  const all = await listRuns({ resourceId: customer });
  expect(all.total).toBeGreaterThan(0);
  // The days the seeded runs were created on (a run is created a moment before it suspends).
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const suspended = all.runs.map((run) => new Date(run.suspendedAt).getTime());
  const first = day(Math.min(...suspended) - 60_000);
  const last = day(Math.max(...suspended));
  const dayBefore = day(Date.parse(first) - 86_400_000);

  await page.goto(`/?resourceId=${customer}`);
  const from = page.getByLabel("From", { exact: true });
  const to = page.getByLabel("To", { exact: true });

  // A range ending the day before any of them holds none.
  await to.fill(dayBefore);
  await expect(page).toHaveURL(urlParam("to", dayBefore));
  await expect(from).toHaveAttribute("max", dayBefore);
  await expect(page.getByText(EMPTY_STATE)).toBeVisible();

  await to.fill(last);
  await from.fill(first);
  await expect(page).toHaveURL(urlParam("from", first));
  await expect(to).toHaveAttribute("min", first);
  expect((await runIdsAfterLoad(page, all.total)).sort()).toEqual(all.runs.map((run) => run.runId).sort());

  await page.getByRole("button", { name: "Reset filters" }).click();
  await expect(from).toHaveValue("");
  await expect(to).toHaveValue("");
  await expect(resourceFilter(page)).toHaveValue("");
});
