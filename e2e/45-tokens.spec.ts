import { randomUUID } from "node:crypto";
import { expect, requests, test } from "./fixtures.ts";
import { demoAccount, loginThroughForm } from "./support/users.ts";

// Tokens are made here by an admin (the stored session is a reviewer's).
test.use({ storageState: { cookies: [], origins: [] } });

test("an admin creates a token, sees it once, uses it as a script would, revokes it, and it stops working", async ({
  page,
  baseURL,
  suspendRun,
}) => {
  const name = `ci ${randomUUID().slice(0, 8)}`;
  await loginThroughForm(page, demoAccount("admin"), "/admin/tokens");
  await expect(page.getByRole("heading", { name: "API tokens", exact: true })).toBeVisible();

  const form = page.getByRole("form", { name: "Create a token" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("checkbox", { name: /^queue:read/ }).check();
  await form.getByRole("checkbox", { name: /^decisions:write/ }).check();
  await form.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByTestId("new-token");
  await expect(shown).toHaveText(/^aat_[A-Za-z0-9_-]{43}$/);
  const token = (await shown.textContent())!;
  await expect(page.getByText("it is shown this once")).toBeVisible();

  // Listed by its prefix only: after a reload the secret is nowhere on the page.
  await page.reload();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).toContainText("Active");
  expect(await page.content()).not.toContain(token.slice(12));

  // A script with the token and no cookie: it reads the queue and approves a waiting call.
  const run = await suspendRun(requests.refund());
  const asScript = (path: string, body?: unknown) =>
    fetch(`${baseURL}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  expect((await asScript(`/api/queue?resourceId=${encodeURIComponent(run.resource)}`)).status).toBe(200);
  const approved = await asScript("/api/decisions", { action: "approve", runId: run.runId, toolCallId: run.toolCallId });
  expect(approved.status).toBe(200);

  // The history says which token decided.
  await page.goto(`/history?runId=${encodeURIComponent(run.runId)}`);
  await expect(page.getByTestId("via-token").first()).toHaveText(`with API token ${name}`);

  // Last used shows, then Revoke: the very next request is refused.
  await page.goto("/admin/tokens");
  await expect(row).toContainText("127.0.0.1");
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(page.getByRole("status").getByText(`Revoked ${name}.`)).toBeVisible();
  await expect(row).toContainText("Revoked");
  const refused = await asScript("/api/queue");
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({
    ok: false,
    error: { code: "unauthenticated", message: expect.stringMatching(/was revoked/) },
  });
});

test("an admin disables a service account after confirming, its token stops at once, and enabling it brings it back", async ({
  page,
  baseURL,
}) => {
  const name = `bot-${randomUUID().slice(0, 8)}`;
  await loginThroughForm(page, demoAccount("admin"), "/admin/tokens");
  const accountForm = page.getByRole("form", { name: "Add a service account" });
  await accountForm.getByLabel("Name").fill(name);
  await accountForm.getByLabel("Role").selectOption("support");
  await accountForm.getByRole("button", { name: "Add service account" }).click();
  await expect(page.getByRole("status").getByText(`Added service account ${name}.`)).toBeVisible();

  const form = page.getByRole("form", { name: "Create a token" });
  await form.getByLabel("Name").fill(`${name} reader`);
  await form.getByLabel("Acts as").selectOption({ label: `${name} (service account, support)` });
  await form.getByRole("checkbox", { name: /^queue:read/ }).check();
  await form.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!;
  const asScript = () => fetch(`${baseURL}/api/queue`, { headers: { authorization: `Bearer ${token}` } });
  expect((await asScript()).status).toBe(200);

  const account = page.locator(`[data-service-account="${name}"]`);
  await expect(account).toContainText("Enabled");
  // Cancel changes nothing; confirming disables it.
  await account.getByRole("button", { name: `Disable ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Disable the service account ${name}?` });
  await expect(dialog).toContainText("Every token of");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect((await asScript()).status).toBe(200);
  await account.getByRole("button", { name: `Disable ${name}` }).click();
  await dialog.getByRole("button", { name: `Disable ${name}` }).click();
  await expect(page.getByRole("status").getByText(`Disabled ${name}. Its tokens no longer work on any server.`)).toBeVisible();
  await expect(account).toContainText("Disabled");
  await expect(account).toContainText(`by ${demoAccount("admin").email}`);
  const tokenRow = page.getByRole("row").filter({ hasText: `${name} reader` });
  await expect(tokenRow).toContainText("Account disabled");
  const refused = await asScript();
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({ error: { message: expect.stringMatching(/which an admin disabled/) } });

  await account.getByRole("button", { name: `Enable ${name}` }).click();
  await page
    .getByRole("dialog", { name: `Enable the service account ${name}?` })
    .getByRole("button", { name: `Enable ${name}` })
    .click();
  await expect(page.getByRole("status").getByText(`Enabled ${name}. Its tokens work again.`)).toBeVisible();
  await expect(account).toContainText("Enabled");
  await expect(tokenRow).toContainText("Active");
  expect((await asScript()).status).toBe(200);

  // Its creation and both changes are in the history, by the admin, each an access change naming it.
  await page.goto(`/history?reviewer=${encodeURIComponent(demoAccount("admin").email)}&kind=access`);
  const changes = page
    .locator("[data-history-entry]")
    .filter({ has: page.getByTestId("access-details").getByText(`Service account ${name}, role Support`, { exact: true }) });
  await expect(changes).toHaveCount(3);
  // Newest first; an access change concerns no run, so no agent is said to be missing.
  await expect(changes.nth(0)).toContainText("enable service account");
  await expect(changes.nth(1)).toContainText("disable service account");
  await expect(changes.nth(2)).toContainText("create service account");
  for (const change of await changes.all()) await expect(change.getByTestId("access-change")).toBeVisible();
  await expect(changes.first()).not.toContainText("agent not recorded");
});
