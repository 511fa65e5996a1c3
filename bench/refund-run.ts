/** The decision benchmarks' run: one refund waiting for approval, on a thread and resource of its own. */
import { requests } from "../lib/mastra/demo/requests.ts";
import { runUntilWaiting, type StreamingAgent } from "../lib/mastra/demo/run-until-waiting.ts";

/**
 * Suspends refund number `seq` (order ORD-<9000 + seq>) on thread `<prefix>-thread-<seq>`. Own thread
 * and resource per run: Mastra holds a second stream on a busy thread of one instance.
 */
export async function suspendRefundRun(agent: StreamingAgent, seq: number, prefix: string): Promise<{ runId: string; toolCallId: string }> {
  const text = requests.refund({
    order: `ORD-${9000 + seq}`,
    email: "bench@example.com",
    amount: "42.50",
    currency: "EUR",
    reason: "damaged",
  }).text;
  const { runId, toolCallId } = await runUntilWaiting(agent, text, { thread: `${prefix}-thread-${seq}`, resource: `${prefix}-res-${seq}` });
  return { runId, toolCallId };
}
