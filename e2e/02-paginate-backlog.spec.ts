import { expect, test } from "./fixtures.ts";
import {
  expandAllThreads,
  pageLabel,
  resourceFilter,
  rowsPerPage,
  totalLabel,
  urlParam,
  visibleRunIds,
  waitForListIdle,
} from "./support/runs-page.ts";

test("a reviewer pages through a larger backlog", async ({ page, backlog }) => {
  test.setTimeout(120_000);
  const { resource, runs } = await backlog(45);

  await page.goto("/");
  await resourceFilter(page).fill(resource);
  await expect(page).toHaveURL(urlParam("resourceId", resource));
  await expect(totalLabel(page, 45)).toBeVisible();
  await expect(pageLabel(page, 1, 3)).toBeVisible(); // 20 per page by default

  await rowsPerPage(page).selectOption("10");
  await expect(page).toHaveURL(urlParam("perPage", 10));
  await expect(pageLabel(page, 1, 5)).toBeVisible();
  await expect(totalLabel(page, 45)).toBeVisible();

  const idsOn = async (n: number): Promise<string[]> => {
    await expect(pageLabel(page, n, 5)).toBeVisible();
    await waitForListIdle(page);
    await expandAllThreads(page);
    const ids = await visibleRunIds(page);
    expect(ids, `rows on page ${n}`).toHaveLength(n < 5 ? 10 : 5);
    return ids;
  };

  const pages: string[][] = [await idsOn(1)];
  await expect(page.getByRole("button", { name: "Previous page" })).toBeDisabled();
  for (let n = 2; n <= 5; n++) {
    await page.getByRole("button", { name: "Next page" }).click();
    await expect(page).toHaveURL(urlParam("page", n));
    pages.push(await idsOn(n));
  }
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();
  await expect(totalLabel(page, 45)).toBeVisible();

  // The pages are disjoint and together hold exactly the backlog.
  const all = pages.flat();
  expect(new Set(all).size).toBe(45);
  expect(all.sort()).toEqual(runs.map((run) => run.runId).sort());

  // Previous page, then the browser's back button, walk the same pages again.
  await page.getByRole("button", { name: "Previous page" }).click();
  await expect(page).toHaveURL(urlParam("page", 4));
  expect((await idsOn(4)).sort()).toEqual([...pages[3]!].sort());

  await page.goBack();
  await expect(page).toHaveURL(urlParam("page", 5));
  expect((await idsOn(5)).sort()).toEqual([...pages[4]!].sort());

  await page.goBack();
  await expect(page).toHaveURL(urlParam("page", 4));
  await page.goBack();
  await expect(page).toHaveURL(urlParam("page", 3));
  expect((await idsOn(3)).sort()).toEqual([...pages[2]!].sort());
});
