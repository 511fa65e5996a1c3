import { expect, requests, test } from "./fixtures.ts";
import { screenshotIfAsked } from "./support/queue-page.ts";
import { demoAccount, loginThroughForm } from "./support/users.ts";

// Rules are an admin's: the admin signs in for this spec (the stored session is a reviewer's).
test.use({ storageState: { cookies: [], origins: [] } });

test("an admin dry-runs a rule, enables it for the calls already waiting, and they leave the queue approved by the rule", async ({
  page,
  suspendRun,
  testResource,
  isPending,
  effectsOf,
}) => {
  const small = [await suspendRun(requests.refund({ amount: "12.00" })), await suspendRun(requests.refund({ amount: "20.00" }))];
  const large = await suspendRun(requests.refund({ amount: "900.00" }));
  const name = `small refunds ${testResource.slice(-6)}`;

  await loginThroughForm(page, demoAccount("admin"), "/admin/rules");
  await expect(page.getByRole("heading", { name: "Rules", exact: true })).toBeVisible();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Agent or workflow (blank: any)").fill("refunds");
  await page.getByLabel("Tool (blank: any)").fill("issueRefund");
  await page.getByLabel("Resource (blank: any)").fill(testResource);
  await page.getByLabel(/^Conditions on the arguments/).fill('[{ "path": "amount", "op": "<", "value": 100 }]');
  await page.getByRole("button", { name: "Dry run" }).click();

  const dryRun = page.getByTestId("dry-run");
  await expect(dryRun).toContainText(/Would approve 2 of \d+ waiting calls\./);
  const listed = dryRun.getByRole("list", { name: "Calls the rule matches" }).getByRole("listitem");
  await expect(listed).toHaveCount(2);
  await expect(listed.first()).toContainText(testResource);
  await screenshotIfAsked(page, "rules-dry-run");
  // Nothing was decided by looking.
  for (const run of [...small, large]) expect(await isPending(run)).toBe(true);

  await page.getByRole("checkbox", { name: /also apply it to the calls already waiting/ }).check();
  await page.getByRole("button", { name: "Save enabled" }).click();
  await expect(page.getByRole("status").filter({ hasText: "decided 2 of 2 matching calls" })).toBeVisible({ timeout: 30_000 });
  const rule = page.getByTestId("rule").filter({ hasText: name });
  await expect(rule).toContainText("enabled");
  await rule.getByText(/^History \(1 version\)/).click();
  await expect(rule).toContainText("Version 1: created by");
  await screenshotIfAsked(page, "rules-saved-with-history");

  for (const run of small) {
    expect(await isPending(run)).toBe(false);
    expect(await effectsOf(run)).toBe(1);
  }
  expect(await isPending(large)).toBe(true);

  await page.goto(`/history?resourceId=${encodeURIComponent(testResource)}`);
  const decisions = page.locator('[data-history-entry="decision"]');
  await expect(decisions).toHaveCount(2);
  await expect(decisions.getByRole("cell", { name: `rule '${name}' (version 1)`, exact: true })).toHaveCount(2);

  // Disabled again, so the other specs' calls are left to people.
  await page.goto("/admin/rules");
  await page.getByTestId("rule").filter({ hasText: name }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("rule").filter({ hasText: name })).toHaveCount(0);
});

test("saving a rule, new or edited, shows what the saved version would do to the calls waiting now; Require approvals is not called unenforced", async ({
  page,
  suspendRun,
  testResource,
  isPending,
}) => {
  const small = await suspendRun(requests.refund({ amount: "15.00" }));
  const large = await suspendRun(requests.refund({ amount: "700.00" }));
  const name = `after save ${testResource.slice(-6)}`;

  await loginThroughForm(page, demoAccount("admin"), "/admin/rules");
  // Four eyes is enforced (e2e/36): the effect is named as what it does.
  await expect(
    page.getByLabel("Effect").getByRole("option", { name: "Require approvals from several people", exact: true }),
  ).toBeAttached();
  await expect(page.locator("main")).not.toContainText("not enforced");

  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Tool (blank: any)").fill("issueRefund");
  await page.getByLabel("Resource (blank: any)").fill(testResource);
  await page.getByLabel(/^Conditions on the arguments/).fill('[{ "path": "amount", "op": "<", "value": 100 }]');
  // Saved without asking for a dry run first: the page shows one for what was saved.
  await page.getByRole("button", { name: "Save disabled" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Saved "${name}" (version 1), disabled.` })).toBeVisible();
  const created = page.getByRole("region", { name: `Dry run of "${name}" (version 1) on the calls waiting when it was saved` });
  await expect(created.getByTestId("dry-run")).toContainText(/Would approve 1 of \d+ waiting calls\./);
  await expect(created.getByRole("list", { name: "Calls the rule matches" }).getByRole("listitem")).toHaveCount(1);
  await screenshotIfAsked(page, "rules-saved-dry-run");

  // Edited: the dry run is the new version's.
  const rule = page.getByTestId("rule").filter({ hasText: name });
  await rule.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel(/^Conditions on the arguments/).fill('[{ "path": "amount", "op": "<", "value": 1000 }]');
  await page.getByRole("button", { name: "Save disabled" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Saved "${name}" (version 2), disabled.` })).toBeVisible();
  const edited = page.getByRole("region", { name: `Dry run of "${name}" (version 2) on the calls waiting when it was saved` });
  await expect(edited.getByTestId("dry-run")).toContainText(/Would approve 2 of \d+ waiting calls\./);
  const listed = edited.getByRole("list", { name: "Calls the rule matches" }).getByRole("listitem");
  await expect(listed).toHaveCount(2);
  await expect(listed.filter({ hasText: /"amount":700\b/ })).toHaveCount(1);

  // A disabled rule decided nothing.
  expect(await isPending(small)).toBe(true);
  expect(await isPending(large)).toBe(true);
  await rule.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("rule").filter({ hasText: name })).toHaveCount(0);
});
