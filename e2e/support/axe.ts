/** What the accessibility checks (e2e/31, and the language specs) ask axe-core about a page. */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** axe-core's serious and critical findings on the page as it is now, named so a failure says what to fix. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Only violations are read: axe then skips writing up every node that passes, much of its time.
  const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}
