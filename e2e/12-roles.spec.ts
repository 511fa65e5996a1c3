import type { Page } from "@playwright/test";
import type { Role } from "../lib/auth/roles.ts";
import { expect, requests, test } from "./fixtures.ts";
import { demoAccount, fillSignInForm, loginThroughForm } from "./support/users.ts";

// Each role signs in for itself: no stored session.
test.use({ storageState: { cookies: [], origins: [] } });

const signIn = (page: Page, role: Role, next = "/") => loginThroughForm(page, demoAccount(role), next);

test("a visitor who is not signed in is sent to sign-in, and a wrong password is refused", async ({ page }) => {
  await page.goto("/history");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fhistory/);
  await fillSignInForm(page, { email: demoAccount("reviewer").email, password: "not-the-password" });
  await expect(page.locator("main").getByRole("alert")).toContainText("The email or password is not right.");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("a reviewer can decide, and signs out", async ({ page, suspendRun }) => {
  const run = await suspendRun(requests.refund());
  await signIn(page, "reviewer", `/runs/${run.runId}`);
  await expect(page).toHaveURL(new RegExp(`/runs/${run.runId}`));
  await expect(page.getByText("Rita Reviewer")).toBeVisible();
  await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in\?next=/);
});

test("support finds a customer's runs and reads them, but cannot decide", async ({ page, suspendRun, isPending }) => {
  const run = await suspendRun(requests.refund());
  await signIn(page, "support", `/?resourceId=${encodeURIComponent(run.resource)}`);
  await expect(page.getByText("Sam Support")).toBeVisible();
  await expect(page.getByText("deciding is for reviewers")).toBeVisible();
  await page.getByRole("link", { name: "issueRefund", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${run.runId}`));
  await expect(page.getByText("Your role can see this call but not decide it.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Decline", exact: true })).toHaveCount(0);
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { name: "You cannot open this page" })).toBeVisible();
  expect(await isPending(run)).toBe(true);
});

test("an admin adds a user and changes a role", async ({ page }) => {
  await signIn(page, "admin");
  await page.getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("heading", { name: "Users", exact: true })).toBeVisible();
  const email = `new-${Date.now()}@e2e.example`;
  await page.getByLabel("Name").fill("New Reviewer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("reviewer");
  await page.getByLabel("Initial password").fill("a-strong-initial-password");
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByText(`Created ${email}.`)).toBeVisible();

  const role = page.getByLabel(`Role of ${email}`);
  await expect(role).toHaveValue("reviewer");
  await role.selectOption("support");
  await expect(page.getByText(`${email} is now support.`)).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(`Role of ${email}`)).toHaveValue("support");
});
