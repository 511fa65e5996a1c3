/**
 * Playwright fixtures that create test data through the product's own code (cal.com style): the
 * demo agents are run by Mastra on the same database as the console until they wait for a person,
 * exactly as they are in production. Every test gets its own resource and thread ids, so specs
 * neither see each other's runs nor touch the seeded backlog (cust_1001…cust_1006).
 *
 * The fixtures run in the Playwright worker, a different process from the console server:
 * what the console shows is read back from the shared SQLite file, never from memory.
 */
import { randomUUID } from "node:crypto";
import { test as base, expect } from "@playwright/test";
import { disconnectDb, getDb } from "../lib/db/client.ts";
import { decide } from "../lib/decisions/decide.ts";
import { INTERRUPTED } from "../lib/decisions/types.ts";
import { createConsoleMastra, type ConsoleMastra } from "../lib/mastra/index.ts";
import { readAnswer, runUntilWaiting, startUntilSuspended } from "../lib/mastra/demo/run-until-waiting.ts";
import type { RefundApprovalInput } from "../lib/mastra/demo/workflows.ts";
import type { RuleDefinition } from "../lib/rules/validations.ts";
import { listSuspendedRuns, type ConsoleRun } from "../lib/runs/list-suspended-runs.ts";
import type { ListSuspendedRunsOptions } from "../lib/runs/validations.ts";
import { runConsoleProcess } from "../tests/helpers/console-process.ts";
import { E2E_DATABASE_URL } from "./support/env.ts";
import { usersFor } from "./support/users.ts";
import { makeEveryKindOfCall, type EveryKindOfCall } from "./support/every-kind.ts";
import { createTestRule, deleteTestRule, waitForRuleMatch, type RuleDraft } from "./support/rules.ts";
import { agentIds, delegated, durable, requests, type AgentKey, type AgentRequest } from "../lib/mastra/demo/requests.ts";

export { expect };
export { requests, agentIds } from "../lib/mastra/demo/requests.ts";

export interface SuspendRunInput {
  agent: AgentKey;
  /** The user message; defaults to a request that makes `agent` wait (see support/requests.ts). */
  text?: string;
  /** Defaults to a fresh thread per run; null: a run without a thread (its resource only). */
  thread?: string | null;
  /** Defaults to the test's own resource (`testResource`). */
  resource?: string;
}

export interface SuspendedRun {
  runId: string;
  toolCallId: string;
  kind: "approval" | "suspend";
  agent: AgentKey;
  agentId: string;
  /** "" for a run without a thread. */
  thread: string;
  resource: string;
  text: string;
}

export interface Backlog {
  resource: string;
  threads: string[];
  runs: SuspendedRun[];
}

interface Fixtures {
  /** The database the console under test reads (the webServer's DATABASE_URL). */
  databaseUrl: string;
  /** A resource id of this test only. */
  testResource: string;
  /** A fresh thread id, unique to this test. */
  newThread: () => string;
  /** Starts the demo refund-approval workflow until its manager-approval step waits (under testResource). */
  startRefundApproval: (input?: Partial<RefundApprovalInput>) => Promise<Pick<SuspendedRun, "runId" | "toolCallId" | "resource">>;
  /** Runs an agent until it waits for a reviewer; returns the pending call. */
  suspendRun: (input: SuspendRunInput) => Promise<SuspendedRun>;
  /** Creates `n` pending runs under one fresh resource, spread over `threads` threads (default: one thread per run). */
  backlog: (n: number, options?: { threads?: number; agent?: AgentKey }) => Promise<Backlog>;
  /** The product's listing, straight from the database. */
  listRuns: (options?: ListSuspendedRunsOptions) => Promise<{ runs: ConsoleRun[]; total: number }>;
  /** Whether `runId` is still waiting, according to the product's listing. */
  isPending: (run: Pick<SuspendedRun, "runId" | "resource">) => Promise<boolean>;
  /** Approves a pending call through the console's decision path as `reviewer` (not the UI): recorded, audited, carried out. */
  approveInConsole: (run: SuspendedRun, reviewer: string) => Promise<void>;
  /** Approves a pending call through Mastra (not the UI) and reads the answer to its end. */
  approveDirectly: (run: SuspendedRun) => Promise<string>;
  /**
   * Approves `run` in a console process that is killed right after the tool's effect happened,
   * then runs recovery as a restarted server would: the call is pending again, "interrupted".
   */
  interruptApproval: (run: SuspendedRun) => Promise<void>;
  /**
   * Approves `run` in a console process killed right after the decision was recorded, with a lease
   * of a minute: the call stays "being decided" by crash-tester until recovery takes it over.
   */
  holdDecision: (run: SuspendedRun) => Promise<void>;
  /** How many times the tool of `run`'s pending call took effect. */
  effectsOf: (run: SuspendedRun) => Promise<number>;
  /** Accounts for this spec, made through the product's own code (support/users.ts). */
  users: ReturnType<typeof usersFor>;
  /**
   * Makes an enabled rule through the product's own store, for the test's resource unless `resource`
   * says otherwise (so other specs' calls never match it); deleted when the test ends.
   */
  addRule: (draft: RuleDraft) => Promise<RuleDefinition>;
  /** Waits until the console's events loop has evaluated the rules for `run` (its risk and effect are known). */
  ruleMatched: (run: Pick<SuspendedRun, "runId" | "toolCallId">) => Promise<void>;
  /** Creates EveryKindOfCall under testResource; takes a minute and more (the overdue call must age). */
  everyKindOfCall: () => Promise<EveryKindOfCall>;
}

interface WorkerFixtures {
  workerDatabaseUrl: string;
}

function defaultText(agent: AgentKey): string {
  switch (agent) {
    case "refunds":
      return requests.refund().text;
    case "customerRecords":
      return requests.erasure().text;
    case "outreach":
      return requests.email().text;
    case "shipping":
      return requests.shipping().text;
    case "supportDesk":
      return delegated(requests.refund()).text;
    case "billing":
      return durable(requests.refund()).text;
  }
}

/** A console process deciding on `databaseUrl` (tests/helpers/console-process.ts); its output in one string. */
async function decideInChild(databaseUrl: string, args: string[], env: Record<string, string>) {
  const exit = await runConsoleProcess([databaseUrl, ...args], env);
  return { signal: exit.signal, output: exit.stdout + exit.stderr };
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  // Every page.goto returns once the page has hydrated (app/providers.tsx marks it): a key pressed,
  // an option selected or a box ticked before that is lost, which made specs flaky.
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      return response;
    };
    // A client component reading a namespace its route's provider does not send
    // (lib/i18n/client-namespaces.ts) logs MISSING_MESSAGE in the browser: no spec may pass with one.
    const missing: string[] = [];
    page.on("console", (message) => {
      if (message.text().includes("MISSING_MESSAGE")) missing.push(message.text().slice(0, 300));
    });
    await use(page);
    expect(missing, "messages missing in the browser").toEqual([]);
  },

  workerDatabaseUrl: [
    async ({}, use) => {
      await use(E2E_DATABASE_URL);
      await disconnectDb(E2E_DATABASE_URL);
    },
    { scope: "worker" },
  ],

  databaseUrl: async ({ workerDatabaseUrl }, use) => use(workerDatabaseUrl),

  testResource: async ({}, use) => use(`e2e-res-${randomUUID()}`),

  newThread: async ({}, use) => use(() => `e2e-thread-${randomUUID()}`),

  startRefundApproval: async ({ databaseUrl, testResource }, use) => {
    const mastra = await createConsoleMastra(databaseUrl);
    await use(async (input = {}) => {
      const request: RefundApprovalInput = {
        orderId: `ORD-${randomUUID().slice(0, 6)}`,
        customerEmail: "e2e@customer.example",
        amount: 860,
        currency: "EUR",
        reason: "parcel never arrived",
        ...input,
      };
      const waiting = await startUntilSuspended(mastra.getWorkflow("refundApproval"), request, { resource: testResource, databaseUrl });
      return { runId: waiting.runId, toolCallId: waiting.toolCallId, resource: testResource };
    });
  },

  suspendRun: async ({ databaseUrl, testResource, newThread }, use) => {
    // Mastra holds a second stream on a thread + resource that already has a suspended run in the
    // same instance until that run completes, so each thread's n-th run goes to the n-th instance.
    const instances: ConsoleMastra[] = [];
    const usedPerInstance: Set<string>[] = [];
    const pick = async (key: string): Promise<ConsoleMastra> => {
      let index = usedPerInstance.findIndex((used) => !used.has(key));
      if (index === -1) {
        instances.push(await createConsoleMastra(databaseUrl));
        usedPerInstance.push(new Set());
        index = instances.length - 1;
      }
      usedPerInstance[index]!.add(key);
      return instances[index]!;
    };

    await use(async ({ agent, text = defaultText(agent), thread = newThread(), resource = testResource }) => {
      const mastra = await pick(`${resource}\u0000${thread ?? ""}`);
      const waiting = await runUntilWaiting(mastra.getAgent(agent), text, thread === null ? { resource } : { thread, resource });
      return { ...waiting, agent, agentId: agentIds[agent], thread: thread ?? "", resource, text };
    });
  },

  backlog: async ({ suspendRun, newThread }, use) => {
    await use(async (n, { threads = n, agent = "refunds" } = {}) => {
      const resource = `e2e-backlog-${randomUUID()}`;
      const threadIds = Array.from({ length: Math.max(1, Math.min(threads, n)) }, () => newThread());
      const runs: SuspendedRun[] = [];
      for (let i = 0; i < n; i++) {
        const request: AgentRequest =
          agent === "refunds" ? requests.refund({ amount: (10 + i).toFixed(2) }) : { agent, text: defaultText(agent) };
        runs.push(await suspendRun({ agent, text: request.text, thread: threadIds[i % threadIds.length], resource }));
      }
      return { resource, threads: threadIds, runs };
    });
  },

  listRuns: async ({ databaseUrl }, use) => use((options = {}) => listSuspendedRuns(options, databaseUrl)),

  isPending: async ({ listRuns }, use) =>
    use(async ({ runId, resource }) => (await listRuns({ resourceId: resource })).runs.some((run) => run.runId === runId)),

  holdDecision: async ({ databaseUrl }, use) => {
    await use(async (run) => {
      const killed = await decideInChild(databaseUrl, ["approve", run.runId, run.toolCallId], {
        APPROVALS_FAILPOINT: "after-record",
        DECISION_LEASE_MS: "60000",
      });
      if (killed.signal !== "SIGKILL") throw new Error(`The deciding process was not killed:\n${killed.output}`);
    });
  },

  interruptApproval: async ({ databaseUrl }, use) => {
    const lease = 300;
    const child = (args: string[], env: Record<string, string> = {}) =>
      decideInChild(databaseUrl, args, { DECISION_LEASE_MS: String(lease), ...env });
    await use(async (run) => {
      const killed = await child(["approve", run.runId, run.toolCallId], { APPROVALS_FAILPOINT: "after-effect" });
      if (killed.signal !== "SIGKILL") throw new Error(`The deciding process was not killed:\n${killed.output}`);
      await new Promise((resolve) => setTimeout(resolve, lease + 200));
      // The console's own periodic recovery may take the decision over first, and this one may take
      // other tests' stale decisions too: what counts is that this call ends up released.
      const recovered = await child(["recover"]);
      const stateOfCall = async () => {
        const decision = await (
          await getDb(databaseUrl)
        ).toolCallDecision.findUnique({
          where: { runId_toolCallId: { runId: run.runId, toolCallId: run.toolCallId } },
        });
        return `${decision?.state} ${decision?.error}`;
      };
      await expect
        .poll(stateOfCall, { message: `Recovery did not release the call:\n${recovered.output}` })
        .toBe(`released ${INTERRUPTED}`);
    });
  },

  users: async ({ databaseUrl }, use) => use(usersFor(databaseUrl)),

  addRule: async ({ databaseUrl, testResource }, use) => {
    const made: RuleDefinition[] = [];
    await use(async (draft) => {
      made.push(await createTestRule(databaseUrl, { resource: testResource, ...draft }));
      return made.at(-1)!;
    });
    for (const rule of made) await deleteTestRule(databaseUrl, rule);
  },

  ruleMatched: async ({ databaseUrl }, use) => use((run) => waitForRuleMatch(databaseUrl, run)),

  everyKindOfCall: async (
    { suspendRun, startRefundApproval, newThread, addRule, ruleMatched, approveInConsole, listRuns, testResource },
    use,
  ) =>
    use(() =>
      makeEveryKindOfCall({ suspendRun, startRefundApproval, newThread, addRule, ruleMatched, approveInConsole, listRuns, testResource }),
    ),

  effectsOf: async ({ databaseUrl }, use) =>
    use(async (run) => (await getDb(databaseUrl)).toolEffect.count({ where: { toolCallId: run.toolCallId } })),

  approveInConsole: async ({ databaseUrl }, use) => {
    await use(async (run, reviewer) => {
      await decide({ action: "approve", runId: run.runId, toolCallId: run.toolCallId }, { reviewer, databaseUrl });
    });
  },

  approveDirectly: async ({ databaseUrl }, use) => {
    await use(async (run) => {
      const mastra = await createConsoleMastra(databaseUrl);
      return readAnswer(await mastra.getAgent(run.agent).approveToolCall({ runId: run.runId, toolCallId: run.toolCallId }));
    });
  },
});
