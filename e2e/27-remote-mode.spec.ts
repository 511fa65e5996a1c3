import { expect, test } from "@playwright/test";
import { getDb } from "../lib/db/client.ts";
import { refundRequest, suspendDemoRun } from "../tests/helpers/demo-runs.ts";
import { E2E_REMOTE, E2E_REMOTE_DATABASE_URL, E2E_REMOTE_PORT } from "./support/env.ts";
import { demoAccount, fillSignInForm } from "./support/users.ts";

/**
 * Remote mode: the second console (playwright.config.ts) hosts no agents and decides through the
 * example Mastra server, which shares its database. A reviewer signs in there, approves a refund,
 * and sees the agent's answer the server sent back; the refund was made once, by the server.
 */
const remoteConsole = `http://127.0.0.1:${E2E_REMOTE_PORT}`;

test.use({ storageState: { cookies: [], origins: [] }, baseURL: remoteConsole });
test.skip(!E2E_REMOTE, "E2E_REMOTE=0: the remote-mode servers were not started");

test("a reviewer approves a refund in a remote-mode console and the team's Mastra server carries it out", async ({ page }) => {
  const run = await suspendDemoRun(E2E_REMOTE_DATABASE_URL, "refunds", refundRequest("ORD-REMOTE-27"));

  await page.goto(`/runs/${run.runId}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await fillSignInForm(page, demoAccount("reviewer"));
  await expect(page).toHaveURL(new RegExp(`/runs/${run.runId}([?#]|$)`));
  await expect(page.getByText("One tool call waits for a reviewer")).toBeVisible();
  // The agent's name comes from the Mastra server's agent list.
  await expect(page.getByText("Refunds").first()).toBeVisible();

  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();
  await expect(page.getByText("Refund re_ordremote27 issued: 42.5 EUR for order ORD-REMOTE-27.")).toBeVisible();

  const db = await getDb(E2E_REMOTE_DATABASE_URL);
  expect(await db.toolEffect.count({ where: { toolCallId: run.ref.toolCallId } })).toBe(1);
  expect(await db.workflowSnapshot.count({ where: { runId: run.runId } })).toBe(0);

  await page.goto(`/history?resourceId=${run.resource}`);
  const row = page.getByRole("row").filter({ hasText: "Refund re_ordremote27 issued" });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("list", { name: "What became of this decision" }).getByRole("listitem")).toHaveText([/^recorded/, /^applied/]);
});
