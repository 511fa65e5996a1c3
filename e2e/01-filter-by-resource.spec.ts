import { expect, test } from "./fixtures.ts";
import { resourceFilter, runIdsAfterLoad, threadIdsOnPage, threadToggle, urlParam } from "./support/runs-page.ts";

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
