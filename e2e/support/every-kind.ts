/**
 * One waiting call of every kind the queue shows, made through the product's own code (the
 * `everyKindOfCall` fixture): e2e/31 runs axe over a queue and run pages holding each.
 */
import type { ConsoleRun } from "../../lib/runs/list-suspended-runs.ts";
import type { ListSuspendedRunsOptions } from "../../lib/runs/validations.ts";
import type { RuleDefinition } from "../../lib/rules/validations.ts";
import { agentIds, delegated, requests } from "../../lib/mastra/demo/requests.ts";
import type { SuspendedRun, SuspendRunInput } from "../fixtures.ts";
import type { RuleDraft } from "./rules.ts";

/**
 * One waiting call of every kind the queue shows, all under the test's resource (e2e/31 runs axe
 * over them: a page without a kind of row cannot show that row's mistakes).
 */
export interface EveryKindOfCall {
  /** Past the review target (REVIEW_SLA_MINUTES=1 in playwright.config.ts): "Overdue", and its thread "1 overdue". */
  overdue: SuspendedRun;
  /** Another agent's call on the overdue call's thread: a thread of two agents. */
  secondAgent: SuspendedRun;
  /** An agent used without a thread: the "No thread" group. */
  noThread: SuspendedRun;
  /** A workflow's step waiting for a person (no thread either). */
  workflowStep: Pick<SuspendedRun, "runId" | "toolCallId" | "resource">;
  /** A supervisor's run whose delegated sub-agent's call waits. */
  delegated: SuspendedRun;
  /** A suspend() call with its payload (chooseShippingAddress): the resume editor. */
  suspended: SuspendedRun;
  /** A refund under "Require 2 approvals", approved once by the demo reviewer: "1 of 2 approvals (Rita Reviewer)", risk high. */
  twoApprovals: SuspendedRun;
  /** A call a rule rates critical. */
  critical: SuspendedRun;
}

/** The fixtures it is made with. */
export interface EveryKindMakers {
  testResource: string;
  newThread: () => string;
  suspendRun: (input: SuspendRunInput) => Promise<SuspendedRun>;
  startRefundApproval: () => Promise<Pick<SuspendedRun, "runId" | "toolCallId" | "resource">>;
  addRule: (draft: RuleDraft) => Promise<RuleDefinition>;
  ruleMatched: (run: Pick<SuspendedRun, "runId" | "toolCallId">) => Promise<void>;
  approveInConsole: (run: SuspendedRun, reviewer: string) => Promise<void>;
  listRuns: (options?: ListSuspendedRunsOptions) => Promise<{ runs: ConsoleRun[]; total: number }>;
}

/** Makes EveryKindOfCall under `testResource`; takes a minute and more (the overdue call must age). */
export async function makeEveryKindOfCall(make: EveryKindMakers): Promise<EveryKindOfCall> {
  const { suspendRun, testResource } = make;
  const shared = make.newThread();
  // First, so that it is past the review target by the time the rest is made.
  const overdue = await suspendRun({ ...requests.email(), thread: shared });
  const secondAgent = await suspendRun({ ...requests.refund({ amount: "11.00" }), thread: shared });
  const noThread = await suspendRun({ ...requests.refund({ amount: "17.00" }), thread: null });
  const workflowStep = await make.startRefundApproval();
  const viaSupervisor = await suspendRun(delegated(requests.refund({ amount: "13.00" })));
  const suspended = await suspendRun(requests.shipping());

  await make.addRule({
    name: `four eyes ${testResource.slice(-6)}`,
    agentId: "refunds",
    toolName: "issueRefund",
    conditions: [{ path: "amount", op: ">", value: 500 }],
    effect: "require_approvals",
    approvals: 2,
    risk: "high",
  });
  await make.addRule({ name: `erasures ${testResource.slice(-6)}`, agentId: agentIds.customerRecords, effect: "ask", risk: "critical" });
  const twoApprovals = await suspendRun(requests.refund({ amount: "750.00" }));
  const critical = await suspendRun(requests.erasure());
  await make.ruleMatched(twoApprovals);
  await make.ruleMatched(critical);
  await make.approveInConsole(twoApprovals, "Rita Reviewer");

  // The review target is a minute: wait until the first call has waited longer (nothing is faked).
  const listed = (await make.listRuns({ resourceId: testResource })).runs.find((run) => run.runId === overdue.runId);
  const waitedEnoughAt = listed!.suspendedAt.getTime() + 61_000;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitedEnoughAt - Date.now())));
  return { overdue, secondAgent, noThread, workflowStep, delegated: viaSupervisor, suspended, twoApprovals, critical };
}
