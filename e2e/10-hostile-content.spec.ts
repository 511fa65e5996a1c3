import { expect, test } from "./fixtures.ts";
import { expandAllThreads, openRunsOf, runLink } from "./support/runs-page.ts";

const IMG = `<img src=x onerror=alert('xss')>`;
const SCRIPT = "<script>alert(1)</script>";

test("markup in a tool call's arguments is shown as text and never runs", async ({ page, listRuns }) => {
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });

  const { runs } = await listRuns({ agentId: "outreach" });
  const hostile = runs.find((run) => JSON.stringify(run.toolCalls).includes("onerror=alert"));
  expect(hostile, "the seeded backlog holds the hostile email").toBeDefined();

  // The list, filtered to the hostile run's thread.
  await openRunsOf(page, hostile!.resourceId!, { threadId: hostile!.threadId! });
  await expandAllThreads(page);
  await expect(runLink(page, hostile!.runId)).toBeVisible();

  // The detail: the email body is visible as text.
  await runLink(page, hostile!.runId).click();
  await expect(page.getByText(IMG).first()).toBeVisible();
  await expect(page.getByText(SCRIPT).first()).toBeVisible();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  const injectedScripts = await page.evaluate(
    () => Array.from(document.scripts).filter((script) => script.textContent?.trim() === "alert(1)").length,
  );
  expect(injectedScripts).toBe(0);

  // Markup in the URL's filters (shown back, or reported as ignored) is never turned into elements.
  await page.goto(`/?resourceId=${encodeURIComponent(IMG)}&threadId=${encodeURIComponent(SCRIPT)}`);
  await expect(page.getByRole("textbox", { name: "Resource ID" })).toBeVisible();
  expect(await page.locator('img[src="x"]').count()).toBe(0);

  await page.waitForTimeout(1_000);
  expect(dialogs, "no dialog was opened by injected markup").toEqual([]);
});
