/**
 * What the language specs (e2e/39, e2e/40) check a page with: the English left on it apart from
 * data, the texts that are data, and signing in in the browser's language.
 */
import type { Page } from "@playwright/test";
import { expect } from "../fixtures.ts";

/** Words in Latin letters on the visible page that are not data (an account, a tool, an id). */
export async function englishLeft(page: Page, data: string[]): Promise<string[]> {
  const text = await page.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const parts: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("script, style, noscript, option, select, code, [hidden]")) continue;
      if (!parent.checkVisibility()) continue;
      parts.push(node.textContent ?? "");
    }
    // What assistive technology reads too.
    for (const element of document.querySelectorAll("[aria-label], [placeholder], [title]")) {
      if (!(element as HTMLElement).checkVisibility?.()) continue;
      for (const name of ["aria-label", "placeholder", "title"]) parts.push(element.getAttribute(name) ?? "");
    }
    return parts.join("\n");
  });
  let rest = text;
  for (const value of data.sort((a, b) => b.length - a.length)) rest = rest.split(value).join(" ");
  return [...new Set(rest.match(/[A-Za-z]{2,}/g) ?? [])];
}

/** Each text node under what `selector` finds: data shown as it was written (ids, JSON, a customer's words). */
export async function textsOf(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const texts: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.textContent?.trim()) texts.push(node.textContent.trim());
    }
    return texts;
  }, selector);
}

/** Signs in on the sign-in page in the browser's language (the labels of `language`). */
export async function signIn(
  page: Page,
  account: { email: string; password: string },
  words: { email: string; password: string; submit: string },
) {
  await page.context().clearCookies();
  await page.goto("/sign-in");
  await page.getByLabel(words.email).fill(account.email);
  await page.getByLabel(words.password).fill(account.password);
  await page.getByRole("button", { name: words.submit, exact: true }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
}

/** Names that are the same in every language: the brand of a product, a setting's or an HTTP header's name, a zone. */
export const PROPER_NAMES = [
  "Slack",
  "SMTP_URL",
  "MAIL_FROM",
  "CSV",
  "JSON",
  "API",
  "Authorization",
  "Bearer",
  "UTC",
  "GMT",
  "English",
  "ID",
];
