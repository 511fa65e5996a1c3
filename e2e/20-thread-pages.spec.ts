import { SERVER_RENDERED_CALLS } from "../components/runs/deferred-rows.ts";
import { CALLS_PER_THREAD } from "../lib/runs/validations.ts";
import { expect, test } from "./fixtures.ts";
import { pageLabel, rowsPerPage, threadIdsOnPage, totalLabel, urlParam, visibleRunIds, waitForListIdle } from "./support/runs-page.ts";

test("paging a 200-run backlog over 30 threads never splits a thread; a thread longer than a page shows its first calls and Show all", async ({
  page,
  backlog,
  suspendRun,
}) => {
  test.setTimeout(240_000);
  const { resource, runs } = await backlog(200, { threads: 30 });
  // One more thread, with more calls than the page has threads and than a thread shows on a page.
  const longThread = `e2e-long-${runs[0]!.thread}`;
  const longRuns = [];
  for (let i = 0; i < CALLS_PER_THREAD + 2; i++) longRuns.push(await suspendRun({ agent: "refunds", thread: longThread, resource }));
  const all = [...runs, ...longRuns];
  const runsByThread = new Map<string, string[]>();
  for (const run of all) runsByThread.set(run.thread, [...(runsByThread.get(run.thread) ?? []), run.runId]);
  expect(runsByThread.size).toBe(31);
  // What a page shows of each thread: its oldest calls, up to CALLS_PER_THREAD (runs were started in order).
  const shownOf = (thread: string) => runsByThread.get(thread)!.slice(0, CALLS_PER_THREAD);

  // The first page (20 threads) holds more calls than the server renders into its HTML: the rest
  // render in the browser, and every call of those threads is there once the page has loaded.
  const listUrl = `/?resourceId=${encodeURIComponent(resource)}`;
  const html = await (await page.request.get(listUrl)).text();
  expect(html.match(/data-call-row=/g)).toHaveLength(SERVER_RENDERED_CALLS);
  expect(/\d+ more calls? of this thread load with the page/.test(html), "a placeholder for the calls left to render").toBe(true);
  await page.goto(listUrl);
  await expect(totalLabel(page, 212, 31)).toBeVisible();
  await waitForListIdle(page);
  const firstPage = await threadIdsOnPage(page);
  const firstPageRuns = firstPage.flatMap(shownOf);
  expect(firstPageRuns.length).toBeGreaterThan(SERVER_RENDERED_CALLS);
  expect((await visibleRunIds(page)).sort()).toEqual(firstPageRuns.sort());
  await expect(page.getByText(/more calls? of this thread load with the page/)).toHaveCount(0);

  await rowsPerPage(page).selectOption("10");
  await expect(page).toHaveURL(urlParam("perPage", 10));
  await expect(totalLabel(page, 212, 31)).toBeVisible();

  const seenThreads: string[] = [];
  const seenRuns: string[] = [];
  for (let n = 1; n <= 4; n++) {
    if (n > 1) {
      await page.getByRole("button", { name: "Next page" }).click();
      await expect(page).toHaveURL(urlParam("page", n));
    }
    await expect(pageLabel(page, n, 4)).toBeVisible();
    await waitForListIdle(page);
    const threads = await threadIdsOnPage(page);
    expect(threads, `threads on page ${n}`).toHaveLength(n < 4 ? 10 : 1);
    const ids = await visibleRunIds(page);
    // Every thread on the page is whole: all its runs are here (its first ones for the long thread), none of another page's.
    for (const thread of threads) {
      expect(ids, `thread ${thread} on page ${n}`).toEqual(expect.arrayContaining(shownOf(thread)));
      await expect(page.getByRole("button", { name: `Collapse thread ${thread}`, exact: true })).toBeVisible();
    }
    expect(ids.sort()).toEqual(threads.flatMap(shownOf).sort());
    seenThreads.push(...threads);
    seenRuns.push(...ids);
  }
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();
  expect(new Set(seenThreads).size).toBe(31);
  expect(seenThreads).toContain(longThread);
  expect(seenRuns.sort()).toEqual(
    [...all.filter((run) => run.thread !== longThread), ...longRuns.slice(0, CALLS_PER_THREAD)].map((run) => run.runId).sort(),
  );

  // The long thread's Show all lists every one of its calls.
  await page.getByRole("link", { name: `Show all ${longRuns.length}` }).click();
  await expect(page).toHaveURL(urlParam("threadId", longThread));
  await waitForListIdle(page);
  expect((await visibleRunIds(page)).sort()).toEqual(longRuns.map((run) => run.runId).sort());
  await page.goBack();
  await waitForListIdle(page);

  // Longest waiting first: the backlog's threads were started in order, the long thread last.
  expect(seenThreads.at(-1)).toBe(longThread);
  await page.getByLabel("Order").selectOption("newest");
  await expect(page).toHaveURL(urlParam("sort", "newest"));
  await expect(pageLabel(page, 1, 4)).toBeVisible();
  await waitForListIdle(page);
  expect((await threadIdsOnPage(page))[0]).toBe(longThread);
});
