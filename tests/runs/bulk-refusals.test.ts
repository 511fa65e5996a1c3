/**
 * Bulk decision requests refused as a whole (no calls, too many, bad input, no access, over the
 * refusal budget), through the decideInBulk server action and POST /api/decisions/bulk, on SQLite
 * and PostgreSQL: a clear error, nothing changed, one audit entry; and a bulk request counts once
 * against the client's refusal budget.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as postBulkRoute } from "../../app/api/decisions/bulk/route.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import type { BulkOutcome } from "../../lib/decisions/types.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { useBulkFixture, type Ref } from "../helpers/bulk.ts";

describe.each(["sqlite", "postgres"] as const)("bulk requests refused on %s", { timeout: 120_000 }, (kind) => {
  const f = useBulkFixture(kind);
  const { bulk, bulkAs, refunds, storeState } = f;

  it("refuses a request of 0 calls with a clear error and changes nothing", async () => {
    const before = await storeState();
    const db = await getDb(f.database.url);
    const audited = await db.auditEvent.count();
    expect(await bulk({ action: "approve", calls: [] })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: "calls must name at least one tool call" },
    });
    expect(await storeState()).toEqual(before);
    expect(await db.auditEvent.count()).toBe(audited + 1);
    expect(await db.auditEvent.findFirstOrThrow({ orderBy: { id: "desc" } })).toMatchObject({
      outcome: "refused",
      code: "invalid_input",
      reviewer: f.reviewer.email,
      message: expect.stringMatching(/^Bulk approve refused: calls must name at least one tool call/),
    });
  });

  it("refuses a request of 101 calls, naming the limit, before touching any of them", async () => {
    const pending = await refunds(2);
    const calls = [...pending, ...Array.from({ length: 99 }, (_, i) => ({ runId: `run-${i}`, toolCallId: `call-${i}` }))];
    const before = await storeState();
    const db = await getDb(f.database.url);
    const audited = await db.auditEvent.count();
    const result = await bulk({ action: "approve", calls });
    expect(result).toEqual({
      ok: false,
      error: { code: "too_many_calls", message: "At most 100 calls per request; this one has 101. Send them in several requests." },
    });
    expect(await storeState()).toEqual(before);
    // One audit entry for the request, naming a few of its calls; and the calls are still decidable.
    expect(await db.auditEvent.count()).toBe(audited + 1);
    expect((await db.auditEvent.findFirstOrThrow({ orderBy: { id: "desc" } })).message).toMatch(
      new RegExp(
        `^Bulk approve of 101 calls refused: At most 100 .* Calls: ${pending[0]!.runId}/${pending[0]!.toolCallId}, .* and 96 more\\.$`,
      ),
    );
    expect((await bulk({ action: "approve", calls: pending })) as { data: BulkOutcome }).toMatchObject({
      data: { counts: { applied: 2 } },
    });
  });

  it.each([
    ["a duplicate call", (calls: Ref[]) => ({ action: "approve", calls: [calls[0], calls[1], calls[0]] }), /calls\[2\] repeats calls\[0\]/],
    ["a reason with approve", (calls: Ref[]) => ({ action: "approve", calls, reason: "why" }), /reason goes with decline only/],
    [
      "resume in bulk",
      (calls: Ref[]) => ({ action: "resume", calls }),
      /action must be "approve" or "decline" \(resume data is never sent in bulk\)/,
    ],
    ["calls that are not a list", () => ({ action: "approve", calls: "all" }), /calls must be a list/],
    ["an oversized reason", (calls: Ref[]) => ({ action: "decline", calls, reason: "x".repeat(2_001) }), /reason is longer than 2000/],
    ["an extra field", (calls: Ref[]) => ({ action: "approve", calls, confirmMayHaveRun: true }), /unknown field: confirmMayHaveRun/],
  ])("refuses %s as a whole and changes nothing", async (_name, body, message) => {
    const calls = await refunds(2);
    const before = await storeState();
    const result = await bulk(body(calls));
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_input", message: expect.stringMatching(message) } });
    expect(await storeState()).toEqual(before);
  });

  it("refuses a support user's bulk request, changes nothing and audits the refusal once", async () => {
    const calls = await refunds(2);
    const before = await storeState();
    const db = await getDb(f.database.url);
    const audited = await db.auditEvent.count();
    expect(await bulkAs(f.support, { action: "approve", calls })).toEqual({
      ok: false,
      error: { code: "forbidden", message: "Your role (support) may not approve, decline or resume tool calls." },
    });
    expect(await storeState()).toEqual(before);
    const rows = await db.auditEvent.findMany({ where: { id: { gt: audited } } });
    expect(rows).toEqual([
      expect.objectContaining({
        reviewer: f.support.email,
        action: "approve",
        outcome: "refused",
        code: "forbidden",
        batchId: null,
        message: expect.stringMatching(/^Bulk approve of 2 calls refused: Your role \(support\)/),
      }),
    ]);
  });

  it("counts a bulk request once against the refusal budget, and turns an over-budget client away before any work", async () => {
    process.env.REFUSALS_PER_MINUTE = "2";
    const flo = await createTestAccount(f.database.url, "reviewer", `Flo-${kind}`);
    const unknown = Array.from({ length: 10 }, () => ({ runId: randomUUID(), toolCallId: "call_x" }));
    // Ten refused calls in one request: one refusal of the two a minute.
    const first = await bulkAs(flo, { action: "approve", calls: unknown });
    expect((first as { data: BulkOutcome }).data.counts).toEqual({
      applied: 0,
      awaiting_approvals: 0,
      already_decided: 0,
      refused: 10,
      failed: 0,
    });
    expect(await bulkAs(flo, { action: "approve", calls: [] })).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    // The budget is used up: the next bulk request is turned away before any of its calls is looked at.
    const calls = await refunds(1);
    const before = await storeState();
    expect(await bulkAs(flo, { action: "approve", calls })).toMatchObject({
      ok: false,
      error: { code: "rate_limited", retryAfterSeconds: expect.any(Number) },
    });
    expect(await storeState()).toEqual(before);
  });

  it("answers POST /api/decisions/bulk with per-call results, 400, 403 and 413", async () => {
    const post = (account: TestAccount, body: unknown) =>
      runAs(actorOf(account), () =>
        postBulkRoute(
          new Request("http://console.test/api/decisions/bulk", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
        ),
      );
    const [call] = await refunds(1);
    const applied = await post(f.reviewer, { action: "approve", calls: [call, { runId: "nope", toolCallId: "nope" }] });
    expect(applied.status).toBe(200);
    expect(await applied.json()).toMatchObject({
      ok: true,
      data: { results: [{ status: "applied" }, { status: "refused", code: "run_not_found" }] },
    });
    const tooMany = await post(f.reviewer, {
      action: "decline",
      calls: Array.from({ length: 101 }, (_, i) => ({ runId: `r${i}`, toolCallId: "c" })),
    });
    expect(tooMany.status).toBe(413);
    expect(await tooMany.json()).toMatchObject({
      ok: false,
      error: { code: "too_many_calls", message: expect.stringMatching(/^At most 100 calls per request; this one has 101/) },
    });
    expect((await post(f.reviewer, { action: "approve", calls: [] })).status).toBe(400);
    expect((await post(f.support, { action: "approve", calls: [call] })).status).toBe(403);
  });
});
