/**
 * What opening calls records for the insights (lib/insights/record.ts), on SQLite and PostgreSQL: the
 * first time each reviewer opened each call, and the first time they opened its context, whatever
 * order the pages and the details were opened in, however often, and with a call named twice.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client.ts";
import { recordCallView, recordRunViews } from "../../lib/insights/record.ts";
import { useTestDatabase } from "../helpers/databases.ts";

describe.each(["sqlite", "postgres"] as const)("call views on %s", (kind) => {
  const database = useTestDatabase(kind, { asDefault: true });

  const views = async (runId: string) =>
    (await (await getDb(database.url)).callView.findMany({ where: { runId }, orderBy: [{ toolCallId: "asc" }, { reviewer: "asc" }] })).map(
      (view) => ({ ...view, openedAt: view.openedAt.getTime(), contextOpenedAt: view.contextOpenedAt?.getTime() ?? null }),
    );
  const tick = async (after: number) => {
    while (Date.now() <= after) await new Promise((resolve) => setImmediate(resolve));
    return Date.now();
  };

  it("keeps the first opening and the first context opening of each call and reviewer", async () => {
    const runId = "run-views-1";
    const before = Date.now();
    await recordRunViews(runId, ["call-a", "call-b", "call-a"], "ana@example.com", false);
    const first = await views(runId);
    expect(first.map((view) => [view.toolCallId, view.reviewer, view.contextOpenedAt])).toEqual([
      ["call-a", "ana@example.com", null],
      ["call-b", "ana@example.com", null],
    ]);
    const openedAt = first[0]!.openedAt;
    expect(openedAt).toBeGreaterThanOrEqual(before);

    // Later: the context of call-a, then the whole run page again (with its context).
    await tick(openedAt);
    await recordCallView(await getDb(database.url), { runId, toolCallId: "call-a", reviewer: "ana@example.com", context: true });
    const contextA = (await views(runId))[0]!.contextOpenedAt!;
    expect(contextA).toBeGreaterThan(openedAt);
    await tick(contextA);
    await recordRunViews(runId, ["call-a", "call-b", "call-c"], "ana@example.com", true);
    const after = await views(runId);
    expect(after.map((view) => view.openedAt.valueOf())).toEqual([openedAt, openedAt, expect.any(Number)]);
    expect(after[0]!.contextOpenedAt).toBe(contextA); // the first context opening stays
    expect(after[1]!.contextOpenedAt).toBeGreaterThan(contextA); // call-b's context: opened just now
    expect(after[2]!.openedAt).toBe(after[2]!.contextOpenedAt); // call-c: first seen with its context
    expect(after[2]!.openedAt).toBeGreaterThan(contextA);

    // Opening without context never clears one; another reviewer has rows of their own.
    await recordRunViews(runId, ["call-a", "call-b", "call-c"], "ana@example.com", false);
    expect(await views(runId)).toEqual(after);
    await recordRunViews(runId, ["call-a"], "bo@example.com", false);
    expect((await views(runId)).filter((view) => view.reviewer === "bo@example.com")).toHaveLength(1);
  });

  it("records nothing and throws nothing for no calls or hostile text", async () => {
    await recordRunViews("run-views-2", [], "ana@example.com", true);
    expect(await views("run-views-2")).toEqual([]);
    const hostile = "x'); DROP TABLE call_views; --\u0000";
    await recordRunViews("run-views-2", [hostile], "ana@example.com", true);
    // NUL is refused by PostgreSQL's text type: swallowed (a statistic never fails a read), nothing stored.
    const stored = await views("run-views-2");
    expect(stored.length).toBe(kind === "sqlite" ? 1 : 0);
    if (kind === "sqlite") expect(stored[0]!.toolCallId).toBe(hostile);
  });
});
