/**
 * A console process for the crash tests: makes one decision (optionally killed by a failpoint,
 * APPROVALS_FAILPOINT) or, with "recover", runs what a restarted server runs first.
 * Usage: decide-in-child.ts <databaseUrl> approve|decline|resume <runId> <toolCallId> [reason|resumeJson]
 *        decide-in-child.ts <databaseUrl> suggest <runId> <toolCallId> <argsJson>   (decline and suggest)
 *        decide-in-child.ts <databaseUrl> recover
 *        decide-in-child.ts <databaseUrl> rules   (one pass of the events loop's rule work)
 * The reviewer is "crash-tester", or APPROVALS_REVIEWER (several people approving one call from several processes).
 */
import { decide } from "../../lib/decisions/decide.ts";
import { recoverDecisions } from "../../lib/decisions/recover.ts";
import type { Decision } from "../../lib/decisions/types.ts";
import { recordWaitingCalls } from "../../lib/events/waiting.ts";
import { decideRuleMatches, prepareRuleMatches } from "../../lib/rules/auto-decide.ts";
import { suggestInput } from "../../lib/suggestions/inputs.ts";
import { declineWithSuggestion } from "../../lib/suggestions/suggest.ts";

const [databaseUrl, action, runId, toolCallId, extra] = process.argv.slice(2) as [string, string, string, string, string?];
if (action === "rules") {
  const claimed = await recordWaitingCalls(databaseUrl, prepareRuleMatches);
  console.log(JSON.stringify({ claimed, decided: await decideRuleMatches(databaseUrl) }));
} else if (action === "suggest") {
  const input = suggestInput.parse({ runId, toolCallId, args: extra });
  console.log(
    JSON.stringify(await declineWithSuggestion(input, { reviewer: process.env.APPROVALS_REVIEWER ?? "crash-tester", databaseUrl })),
  );
} else if (action === "recover") {
  console.log(JSON.stringify(await recoverDecisions(databaseUrl)));
} else {
  const decision = (
    action === "decline"
      ? { action, runId, toolCallId, reason: extra }
      : action === "resume"
        ? { action, runId, toolCallId, resumeData: JSON.parse(extra ?? "null") }
        : { action: "approve", runId, toolCallId }
  ) as Decision;
  console.log(JSON.stringify(await decide(decision, { reviewer: process.env.APPROVALS_REVIEWER ?? "crash-tester", databaseUrl })));
}
process.exit(0);
