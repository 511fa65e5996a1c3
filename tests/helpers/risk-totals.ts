/** waiting_risk_totals as read and as it must be, for the tests of the tables it sums. */
import { getDb } from "../../lib/db/client.ts";

export type RiskTotals = Record<string, { threads: number; calls: number }>;

/** What waiting_risk_totals must hold: the given waiting_thread_risks rows summed per risk. */
export function riskTotalsOf(threads: Array<{ risk: string; calls: number }>): RiskTotals {
  const totals: RiskTotals = {};
  for (const thread of threads) {
    const total = (totals[thread.risk] ??= { threads: 0, calls: 0 });
    total.threads += 1;
    total.calls += thread.calls;
  }
  return totals;
}

/** What waiting_risk_totals holds; a risk whose last thread left keeps its row at 0: read as absent. */
export async function keptRiskTotals(url: string): Promise<RiskTotals> {
  const rows = await (await getDb(url)).waitingRiskTotal.findMany();
  return Object.fromEntries(
    rows.filter((row) => row.threads !== 0 || row.calls !== 0).map((row) => [row.risk, { threads: row.threads, calls: row.calls }]),
  );
}
