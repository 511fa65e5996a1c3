/**
 * The runs listing as scripts and the runs table reach it: GET /api/runs (strict: a bad parameter is
 * a 400 that says why) and the table's browseRuns action (lenient: a bad parameter is ignored and
 * reported). Real demo agents and store, on SQLite and PostgreSQL.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getQueueRoute } from "../../app/api/queue/route.ts";
import { GET as getRunsRoute } from "../../app/api/runs/route.ts";
import { browseRuns as browseRunsAction } from "../../lib/actions/browse-runs.ts";
import { approveToolCall } from "../../lib/actions/approve-tool-call.ts";
import { runAs } from "../../lib/auth/session.ts";
import { getDb } from "../../lib/db/client.ts";
import { setPresence } from "../../lib/live/presence.ts";
import { actorOf, createTestAccount, type TestAccount } from "../helpers/accounts.ts";
import { useTestDatabase } from "../helpers/databases.ts";
import { refundRequest, suspendDemoRun } from "../helpers/demo-runs.ts";

describe.each(["sqlite", "postgres"] as const)("the runs listing on %s", (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });
  let reviewer: TestAccount;
  let support: TestAccount;

  beforeAll(async () => {
    [reviewer, support] = await Promise.all([createTestAccount(database.url, "reviewer"), createTestAccount(database.url, "support")]);
  });

  const asReviewer = <T>(work: () => Promise<T>) => runAs(actorOf(reviewer), work);
  /** GET /api/runs's handler, as a signed-in caller (or nobody) reaches it; its JSON body. */
  const listRunsAs = async (actor: TestAccount | null, params: Record<string, string | number>) => {
    const url = `http://console.test/api/runs?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]))}`;
    const call = () => getRunsRoute(new Request(url));
    const response = await (actor ? runAs(actorOf(actor), call) : call());
    return (await response.json()) as { ok: boolean; data?: unknown; error?: unknown };
  };
  const listRuns = (params: Record<string, string | number>) => listRunsAs(reviewer, params);
  const refund = (order = "ORD-9") => suspendDemoRun(database.url, "refunds", refundRequest(order));

  it("lets support list runs and nobody list without signing in (the run page's own check: tests/auth)", async () => {
    const call = await refund();
    expect(await listRunsAs(support, { resourceId: call.resource })).toMatchObject({ ok: true, data: { total: 1 } });
    expect(await listRunsAs(null, { resourceId: call.resource })).toEqual({
      ok: false,
      error: { code: "unauthenticated", message: "Sign in to continue." },
    });
  });

  it("lists with the page's query and rejects a bad one", async () => {
    const call = await refund();
    expect(await listRuns({ resourceId: call.resource, page: 1, perPage: 10 })).toMatchObject({
      ok: true,
      data: { total: 1, page: 1, perPage: 10, pageCount: 1, runs: [{ runId: call.runId, agentId: "refunds" }] },
    });
    expect(await listRuns({ perPage: 7 })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringMatching(/perPage/) },
    });
    expect(await listRuns({ from: "2026-02-30" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringMatching(/From is not a valid date/) },
    });
    expect(await listRuns({ from: "2026-03-02", to: "2026-03-01" })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/From must not be after To/) },
    });
  });

  it("serves the queue's pages of threads at GET /api/queue, strictly", async () => {
    const first = await refund("ORD-1");
    const url = (params: Record<string, string>) => `http://console.test/api/queue?${new URLSearchParams(params)}`;
    const read = async (params: Record<string, string>) =>
      (await (await runAs(actorOf(support), () => getQueueRoute(new Request(url(params))))).json()) as Record<string, unknown>;
    expect(await read({ resourceId: first.resource, sort: "newest" })).toMatchObject({
      ok: true,
      data: {
        threadTotal: 1,
        callTotal: 1,
        sort: "newest",
        slaMinutes: 60,
        threads: [{ threadKey: first.thread, calls: 1, overdueCalls: 0, runs: [{ runId: first.runId, agentId: "refunds" }] }],
      },
    });
    // Nothing of a run a minute old is overdue against a 60-minute target.
    expect(await read({ resourceId: first.resource, overdue: "1" })).toMatchObject({ ok: true, data: { threadTotal: 0, threads: [] } });
    expect(await read({ sort: "sideways" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringMatching(/sort must be one of oldest, newest/) },
    });
    expect(await read({ overdue: "yes" })).toMatchObject({ ok: false, error: { code: "invalid_input" } });
  });

  it("browses with the URL's parameters as found: invalid ones are ignored and reported, not fatal", async () => {
    const call = await refund();
    const browse = (params: unknown) => asReviewer(() => browseRunsAction({ params }));
    expect(await browse({ resourceId: `  ${call.resource} `, page: "abc", perPage: "7", from: "2026-02-30" })).toMatchObject({
      ok: true,
      data: {
        view: {
          threadTotal: 1,
          callTotal: 1,
          page: 1,
          perPage: 20,
          sort: "oldest",
          threads: [{ threadKey: call.thread, calls: 1, runs: [{ runId: call.runId }] }],
          problems: [
            { message: "from=2026-02-30 was ignored: From is not a valid date (use YYYY-MM-DD)" },
            { message: "page=abc was ignored: page must be a number" },
            { message: "perPage=7 was ignored: perPage must be one of 10, 20, 50, 100" },
          ],
        },
      },
    });
    expect(await browse({ resourceId: call.resource, from: "2026-03-02", to: "2026-03-01" })).toMatchObject({
      ok: true,
      data: { view: { callTotal: 1, problems: [{ message: "to=2026-03-01 was ignored: From must not be after To" }] } },
    });
    // The shape itself is checked: only the page's parameters, as strings of a sane length.
    expect(await browse({ resourceId: call.resource, sort: "runId", overdue: "yes" })).toMatchObject({
      ok: true,
      data: {
        view: {
          sort: "oldest",
          problems: [
            { message: "sort=runId was ignored: sort must be one of oldest, newest, risk" },
            { message: "overdue=yes was ignored: overdue must be 1 (or left out)" },
          ],
        },
      },
    });
    expect(await browse({ resourceId: call.resource, orderBy: "runId" })).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(await browse({ resourceId: { $ne: null } })).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(await browse({ threadId: "x".repeat(5_000) })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringMatching(/4,096/) },
    });
    expect(await browse("resourceId=x")).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(await asReviewer(() => browseRunsAction({ resourceId: call.resource }))).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    expect(await asReviewer(() => browseRunsAction({ params: {}, ifChanged: "v".repeat(201) }))).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringMatching(/200 characters/) },
    });
    expect(await browseRunsAction({ params: {} })).toMatchObject({ ok: false, error: { code: "unauthenticated" } });
  });

  it("answers a table that names the version it has 'unchanged' until something its reader sees changes", async () => {
    const call = await refund("ORD-V1");
    const params = { resourceId: call.resource };
    const browseAs = (actor: TestAccount, ifChanged?: string) => runAs(actorOf(actor), () => browseRunsAction({ params, ifChanged }));
    // The version changes with the minute too: read the pair again if one turned in between.
    let version = "";
    let again: Awaited<ReturnType<typeof browseAs>> | undefined;
    for (let attempt = 0; attempt < 2 && !(again?.ok && "unchanged" in again.data); attempt++) {
      const first = await browseAs(reviewer);
      if (!first.ok || !("view" in first.data)) throw new Error(`a full read: ${JSON.stringify(first)}`);
      expect(first.data.view.threads[0]?.runs[0]?.runId).toBe(call.runId);
      version = first.data.version;
      again = await browseAs(reviewer, version);
    }
    expect(again).toEqual({ ok: true, data: { version, unchanged: true } });
    // Another reader's version (assigned=me differs between readers), or a version of another view: in full.
    expect(await browseAs(support, version)).toMatchObject({ ok: true, data: { view: { callTotal: 1 } } });
    expect(await asReviewer(() => browseRunsAction({ params: { resourceId: "someone-else" }, ifChanged: version }))).toMatchObject({
      ok: true,
      data: { view: { callTotal: 0 } },
    });
    expect(await browseAs(reviewer, "0.forged")).toMatchObject({ ok: true, data: { view: { callTotal: 1 } } });

    // Someone opening a call moves the feed but not the page: still unchanged.
    const db = await getDb(database.url);
    await setPresence(db, actorOf(support), { stream: "listing-test", calls: [call.ref] });
    expect(await browseAs(reviewer, version)).toMatchObject({ ok: true, data: { unchanged: true } });
    // Another customer's call starting to wait changes the queue, not this customer's page: still unchanged.
    await refund("ORD-V2");
    expect(await browseAs(reviewer, version)).toMatchObject({ ok: true, data: { unchanged: true } });
    // A resourceId the page ignores (a NUL in it) filters nothing: every change is that page's change.
    const ignoredFilter = (ifChanged?: string) =>
      asReviewer(() => browseRunsAction({ params: { resourceId: `${call.resource}\u0000` }, ifChanged }));
    const unfiltered = await ignoredFilter();
    if (!unfiltered.ok) throw new Error(`a full read: ${JSON.stringify(unfiltered)}`);
    await refund("ORD-V3");
    expect(await ignoredFilter(unfiltered.data.version)).toMatchObject({ ok: true, data: { view: { problems: [expect.anything()] } } });
    // A decision on the call changes it: the page in full, without the call.
    expect(await asReviewer(() => approveToolCall(call.ref))).toMatchObject({ ok: true });
    const after = await browseAs(reviewer, version);
    expect(after).toMatchObject({ ok: true, data: { view: { callTotal: 0 } } });
    expect(after.ok && after.data.version).not.toBe(version);
  });
});
