/**
 * People for the specs, made through the product's own account code (cal.com's `users` fixture):
 * `users.create({ role })` adds an account, which signs in through the API (`apiLogin`, fast: for
 * specs about something else) or through the sign-in page (`login`, for specs about signing in).
 * The demo accounts sign in the same two ways.
 */
import { randomUUID } from "node:crypto";
import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { createAccount } from "../../lib/auth/users.ts";
import type { Role } from "../../lib/auth/roles.ts";
import { DEMO_ACCOUNTS } from "../../lib/mastra/demo/accounts.ts";

export interface Account {
  name: string;
  email: string;
  role: Role;
  password: string;
}

/** The demo account of `role` (seeded by e2e/prepare-db.ts). */
export function demoAccount(role: Role): Account {
  return DEMO_ACCOUNTS.find((account) => account.role === role)!;
}

/** Signs in through the sign-in page, starting from `next` (which sends an anonymous visitor there). */
export async function loginThroughForm(page: Page, account: Pick<Account, "email" | "password">, next = "/") {
  await page.goto(next);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await fillSignInForm(page, account);
}

/** Fills and sends the sign-in form on the page that shows it. */
export async function fillSignInForm(page: Page, { email, password }: Pick<Account, "email" | "password">) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Signs `context` in through the sign-in API: its pages start signed in. */
export async function apiLogin(context: BrowserContext, { email, password }: Pick<Account, "email" | "password">, baseURL: string) {
  const response = await context.request.post(`${baseURL}/api/auth/sign-in/email`, {
    data: { email, password },
    headers: { origin: baseURL },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** A page of a browser context of its own, signed in as `account` through the API (a second reviewer, say). */
export async function signedInPage(browser: Browser, baseURL: string, account: Pick<Account, "email" | "password">): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  await apiLogin(context, account, baseURL);
  return context.newPage();
}

/** Creates accounts on the console's database for one spec. */
export function usersFor(databaseUrl: string) {
  return {
    async create({ role, name = `${role} ${randomUUID().slice(0, 6)}` }: { role: Role; name?: string }): Promise<Account> {
      const account: Account = {
        name,
        email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${randomUUID().slice(0, 8)}@e2e.example`,
        role,
        password: `pw-${randomUUID()}`,
      };
      await createAccount(account, { databaseUrl });
      return account;
    },
  };
}
