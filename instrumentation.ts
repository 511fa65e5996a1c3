/**
 * Runs once when a console server starts: takes over decisions a stopped server left half-done,
 * then keeps checking, so a crash never leaves a tool call stuck (lib/runs/decisions.ts).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { recoverDecisions, decisionLeaseMs } = await import("./lib/runs/decisions.ts");
  const recover = async () => {
    try {
      const report = await recoverDecisions();
      if (report.carriedOut + report.released + report.applied + report.failed > 0) {
        console.log("[recovery] decisions taken over:", JSON.stringify(report));
      }
    } catch (error) {
      console.error("[recovery] failed:", error);
    }
  };
  void recover();
  setInterval(recover, Math.min(30_000, Math.max(1_000, decisionLeaseMs() / 2))).unref();
}
