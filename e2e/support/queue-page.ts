/** Helpers for deciding from the review queue's rows (`/`), by their accessible names. */
import type { Locator, Page } from "@playwright/test";

/** The row of a pending call. */
export function callRow(page: Page, run: { runId: string; toolCallId: string }): Locator {
  return page.locator(`tr[data-call-row="${run.runId}:${run.toolCallId}"]`);
}

/** The opened part of a call's row: its arguments or payload, and the decision. */
export function callDetail(page: Page, run: { runId: string; toolCallId: string }): Locator {
  return page.locator(`[id="call-detail-${run.runId}:${run.toolCallId}"]`);
}

/** The row that has the focus (the current call). */
export function focusedCallRow(page: Page): Locator {
  return page.locator("tr[data-call-row]:focus");
}

/**
 * Saves a full-page screenshot as `<SCREENSHOT_DIR>/<name>.png` when SCREENSHOT_DIR is set (to look
 * at the console as a reviewer sees it); otherwise does nothing.
 */
export async function screenshotIfAsked(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}
