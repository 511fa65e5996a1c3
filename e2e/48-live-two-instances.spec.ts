import { expect, test, type Page } from "@playwright/test";
import { disconnectDb } from "../lib/db/client.ts";
import { createTestAccount, type TestAccount } from "../tests/helpers/accounts.ts";
import { startConsoleServer, type ConsoleServer } from "../tests/helpers/console-server.ts";
import { createTestDatabase, type TestDatabase } from "../tests/helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../tests/helpers/demo-runs.ts";
import { callDetail, callRow } from "./support/queue-page.ts";
import { EMPTY_STATE, openRunsOf } from "./support/runs-page.ts";
import { recordRequests } from "./support/idle-requests.ts";
import { apiLogin } from "./support/users.ts";

/**
 * The live queue across two instances (issue 45): two console servers on one PostgreSQL database
 * (their own, made here; the suite's SQLite console is not used), a reviewer's browser on each.
 * Both open the same call and each sees the other has it open (presence). One approves it on
 * instance A; on instance B the other's row goes, without a reload and without any request on a
 * timer: while nothing happens the page sends no request at all, and afterwards only the list's
 * reads (and the closed call's presence), all caused by the stream.
 */
test.use({ storageState: { cookies: [], origins: [] } });

let database: TestDatabase;
let servers: ConsoleServer[] = [];
const people: TestAccount[] = [];

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000);
  database = await createTestDatabase("postgres");
  servers = await Promise.all([startConsoleServer(database.url), startConsoleServer(database.url)]);
  for (const name of ["Ada Lovelace", "Grace Hopper"]) people.push(await createTestAccount(database.url, "reviewer", name));
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await disconnectDb(database.url);
  await database.drop();
});

test("one reviewer approves on instance A; the other's row on instance B goes without a reload or a timer", async ({ browser }) => {
  test.setTimeout(120_000);
  const run = await suspendDemoRun(database.url, "refunds", refundRequest("ORD-4848", "12.00 EUR"));
  const [deciding, watching] = (await Promise.all(
    servers.map(async (server, i) => {
      const context = await browser.newContext({ baseURL: server.url });
      await apiLogin(context, people[i]!, server.url);
      const page = await context.newPage();
      const streamOpened = page.waitForResponse((response) => response.url().includes("/api/events/stream") && response.status() === 200);
      await openRunsOf(page, run.resource);
      await streamOpened;
      return page;
    }),
  )) as [Page, Page];

  // Both open the call: each is told, through its own instance, that the other has it open too.
  for (const page of [deciding, watching]) {
    await callRow(page, run.ref)
      .getByRole("button", { name: /^Open issueRefund/ })
      .click();
    await expect(callDetail(page, run.ref).getByRole("button", { name: "Approve", exact: true })).toBeVisible();
  }
  await expect(callRow(watching, run.ref).getByText("Open by Ada Lovelace")).toBeVisible();
  await expect(callRow(deciding, run.ref).getByText("Open by Grace Hopper")).toBeVisible();
  // A marker in the page's JavaScript realm survives only if the document is never reloaded.
  await watching.evaluate(() => ((window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument = true));

  // Longer than the 3 s the list used to be read on: nothing changed, so nothing is sent.
  const sent = recordRequests(watching);
  await watching.waitForTimeout(4_000);
  expect(sent.map((request) => `${request.method()} ${request.url()}`)).toEqual([]);

  await callDetail(deciding, run.ref).getByRole("button", { name: "Approve", exact: true }).click();
  await expect(callDetail(deciding, run.ref).getByRole("status")).toContainText("Approved");

  await expect(callRow(watching, run.ref)).toHaveCount(0, { timeout: 10_000 });
  await expect(watching.getByText(EMPTY_STATE)).toBeVisible();
  expect(await watching.evaluate(() => (window as unknown as { __e2eSameDocument?: boolean }).__e2eSameDocument), "never reloaded").toBe(
    true,
  );
  // Only what the stream caused: the list read again (a decision's steps may come apart) and the
  // closed call's presence; no page loads, nothing read on a timer.
  await expect.poll(() => sent.length, { timeout: 10_000 }).toBeGreaterThan(0);
  expect(sent.length).toBeLessThanOrEqual(6);
  for (const request of sent) expect(request.method(), request.url()).toBe("POST");
  await Promise.all([deciding, watching].map((page) => page.context().close()));
});
