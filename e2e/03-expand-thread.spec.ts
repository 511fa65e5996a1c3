import { expect, requests, test } from "./fixtures.ts";
import { openRunsOf, runLink, threadToggle, totalLabel } from "./support/runs-page.ts";

test("a reviewer collapses and expands a thread with several pending calls", async ({ page, suspendRun, testResource, newThread }) => {
  const busy = newThread();
  const quiet = newThread();
  const inBusy = [
    await suspendRun({ agent: "refunds", thread: busy }),
    await suspendRun({ agent: "shipping", thread: busy, text: requests.shipping().text }),
    await suspendRun({ agent: "outreach", thread: busy }),
  ];
  const inQuiet = await suspendRun({ agent: "customerRecords", thread: quiet });

  await openRunsOf(page, testResource);
  await expect(totalLabel(page, 4)).toBeVisible();

  const toggle = threadToggle(page, busy);
  const busyLinks = inBusy.map((run) => runLink(page, run.runId));
  await expect(toggle).toBeVisible();

  const expectExpanded = async (expanded: boolean) => {
    await expect(toggle).toHaveAttribute("aria-expanded", String(expanded));
    await expect(toggle).toHaveAccessibleName(`${expanded ? "Collapse" : "Expand"} thread ${busy}`);
    for (const link of busyLinks) {
      if (expanded) await expect(link).toBeVisible();
      else await expect(link).toBeHidden();
    }
  };

  const initiallyExpanded = (await toggle.getAttribute("aria-expanded")) === "true";
  await expectExpanded(initiallyExpanded);

  await toggle.click();
  await expectExpanded(!initiallyExpanded);
  await toggle.click();
  await expectExpanded(initiallyExpanded);

  // Make sure both states were seen with rows: end expanded, then collapse once more.
  if (!initiallyExpanded) await toggle.click();
  await expectExpanded(true);
  await expect(page.getByRole("link", { name: "issueRefund" })).toBeVisible();
  await expect(page.getByRole("link", { name: "chooseShippingAddress" })).toBeVisible();
  await expect(page.getByRole("link", { name: "sendEmail" })).toBeVisible();
  await toggle.click();
  await expectExpanded(false);

  // The other thread is not affected by this one's toggle.
  const quietToggle = threadToggle(page, quiet);
  if ((await quietToggle.getAttribute("aria-expanded")) !== "true") await quietToggle.click();
  await expect(quietToggle).toHaveAttribute("aria-expanded", "true");
  await expect(runLink(page, inQuiet.runId)).toBeVisible();
  await expectExpanded(false);
});
