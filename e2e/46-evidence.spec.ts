import { readFile } from "node:fs/promises";
import { checkEvidenceSignature } from "../lib/audit/evidence-signature.ts";
import { getDb } from "../lib/db/client.ts";
import { expect, requests, test } from "./fixtures.ts";
import { E2E_EVIDENCE_KEY } from "./support/env.ts";
import { apiLogin, demoAccount } from "./support/users.ts";

/**
 * A reviewer approves a refund from its page, which sends the digest of the arguments it showed; an
 * admin exports the period's evidence from /history, as a signed JSON bundle and as CSV, and the
 * bundle names that decision with what the reviewer saw; the audit log verifies, over the API and
 * with "Verify now" on /history; a reviewer may not export evidence or verify the log.
 */
test("an admin exports signed evidence from /history naming what the reviewer was shown", async ({
  page,
  browser,
  baseURL,
  suspendRun,
  databaseUrl,
}) => {
  test.slow();
  const run = await suspendRun(requests.refund({ amount: "13.00", currency: "EUR" }));
  await page.goto(`/runs/${run.runId}`);
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();
  const db = await getDb(databaseUrl);
  const recorded = await db.auditEvent.findFirstOrThrow({ where: { runId: run.runId, outcome: "recorded" } });
  // The page's own digest of the arguments it showed matched the server's: the decision was made on them.
  expect(recorded).toMatchObject({ argsDigestFrom: "shown", via: "console" });
  expect(recorded.argsDigest).toMatch(/^[0-9a-f]{64}$/);

  // A reviewer may do neither.
  expect((await page.request.get("/api/admin/evidence")).status()).toBe(403);
  expect((await page.request.get("/api/admin/audit/verify")).status()).toBe(403);
  await page.goto("/history");
  await expect(page.getByTestId("evidence-export")).toHaveCount(0);
  await expect(page.getByTestId("audit-chain")).toHaveCount(0);

  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  await apiLogin(context, demoAccount("admin"), baseURL!);
  const admin = await context.newPage();
  await admin.goto("/history");
  const evidence = admin.getByTestId("evidence-export");
  await evidence.getByText("Export evidence").click();
  await expect(evidence.getByLabel("From")).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
  const jsonDownload = admin.waitForEvent("download");
  await admin.getByRole("button", { name: "Download evidence" }).click();
  const json = await readFile((await (await jsonDownload).path())!, "utf8");
  expect(checkEvidenceSignature(json, E2E_EVIDENCE_KEY)).toMatchObject({ ok: true });
  expect(checkEvidenceSignature(json.replace(run.runId, `${run.runId}x`), E2E_EVIDENCE_KEY).ok).toBe(false);
  const bundle = JSON.parse(json);
  expect(bundle.kind).toBe("agent-approvals-oversight-evidence");
  expect(bundle.chain.head.hash).toMatch(/^[0-9a-f]{64}$/);
  const row = bundle.decisions.find((decision: { runId: string }) => decision.runId === run.runId);
  expect(row).toMatchObject({
    reviewer: demoAccount("reviewer").email,
    reviewerSignInMethods: "password",
    authMethod: "password",
    tokenName: "",
    decidedBy: "person",
    via: "console",
    action: "approve",
    state: "applied",
    argsDigest: recorded.argsDigest,
    argsDigestFrom: "shown",
    auditSeq: recorded.chainSeq,
    auditHash: recorded.hash,
  });

  await evidence.getByLabel("Format").selectOption("csv");
  const csvDownload = admin.waitForEvent("download");
  await admin.getByRole("button", { name: "Download evidence" }).click();
  const csv = await readFile((await (await csvDownload).path())!, "utf8");
  expect(csv.split("\r\n")[0]).toMatch(/^decisionId,decidedAt,reviewer,/);
  expect(csv).toContain(`${run.runId},${run.toolCallId}`);

  const verified = await (await admin.request.get("/api/admin/audit/verify")).json();
  expect(verified).toMatchObject({ ok: true, data: { ok: true, problem: null } });
  expect(verified.data.rows).toBeGreaterThan(0);

  // The same walk from the page: the head it shows, then "Verify now".
  const chain = admin.getByTestId("audit-chain");
  await expect(chain.getByTestId("audit-chain-head")).toContainText(/place \d+, hash [0-9a-f]{64}/);
  await chain.getByRole("button", { name: "Verify now" }).click();
  await expect(chain.getByRole("status")).toContainText(/^The chain holds: [\d,]+ rows checked/);
  const bad = await admin.request.get("/api/admin/evidence?from=2026-02-30");
  expect(bad.status()).toBe(400);
  await context.close();
});
