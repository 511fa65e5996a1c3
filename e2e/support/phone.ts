/** The phone the suite holds the console to (an iPhone 12–15 sized touch screen), and what "fits" means on it. */
import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import { THUMB_TARGET } from "../../components/ui/thumb-target.ts";

export { THUMB_TARGET };

export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } as const;

/** The page scrolls only up and down: nothing is wider than the screen. */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const width = page.viewportSize()!.width;
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `${what} scrolls sideways` }).toBe(width);
}

/** A control at least THUMB_TARGET × THUMB_TARGET CSS pixels. */
export async function expectThumbTarget(target: Locator, what: string): Promise<void> {
  const box = await target.boundingBox();
  expect(box, `${what} is not on screen`).not.toBeNull();
  expect(box!.width, `${what} width`).toBeGreaterThanOrEqual(THUMB_TARGET);
  expect(box!.height, `${what} height`).toBeGreaterThanOrEqual(THUMB_TARGET);
}

/** Every admin page (each folder of app/admin), so a new one is checked on a phone and by axe without a list to update. */
export const ADMIN_PAGES = readdirSync(path.resolve("app/admin"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `/admin/${entry.name}`)
  .sort();
