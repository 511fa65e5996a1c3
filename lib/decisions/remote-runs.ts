/**
 * Remote mode's run owner: an agent of the team's own Mastra server (lib/mastra/remote.ts), which
 * shares the console's database. Decisions go to Mastra's HTTP routes (Mastra 1.71 with its server
 * adapters): POST /api/agents/:agentId/approve-tool-call, …/decline-tool-call (with `reason`) and
 * …/resume-stream (with `resumeData`), each answering with the continued run as server-sent events,
 * read like an in-process stream (agent-stream.ts).
 *
 * Whether a failed decision reached the agent decides what becomes of it:
 *  - never sent (server unreachable, credentials refused, agent or run unknown to it): the call
 *    stays decidable (carry-out.ts releases it);
 *  - sent, but the answer broke off or timed out: its tool may have run, so it is left to
 *    recovery, as when a console server stops mid-decision (AnswerLostError).
 */
import { z } from "zod";
import type { Db } from "../db/client.ts";
import type { ToolCallDecision } from "../generated/sqlite/client.ts";
import { failpoint } from "../failpoint.ts";
import { listRemoteAgents, remoteClient, type RemoteServer } from "../mastra/remote.ts";
import { getSuspendedRun } from "../runs/run-detail.ts";
import { workflowIdOfOwner, type AgentRunToolCall } from "@agent-approvals/mastra-store";
import { describe, readAgentStream, type Continued } from "./agent-stream.ts";
import { decisionLeaseMs } from "./ledger.ts";
import type { StandardSchema } from "./owners.ts";
import { durableRunWritten, pendingRowVersion } from "./run-position.ts";
import { AnswerLostError, DecisionError, declinesCall } from "./types.ts";

export type RemoteOwner = { kind: "remote"; id: string; server: RemoteServer; databaseUrl: string };

/** The server's agent `ownerKey`, if the server serves it (its agent list says so). */
export async function resolveRemoteOwner(ownerKey: string, server: RemoteServer, databaseUrl: string): Promise<RemoteOwner> {
  const workflowId = workflowIdOfOwner(ownerKey);
  if (workflowId !== undefined) {
    throw new DecisionError(
      "unknown_agent",
      `This run belongs to workflow "${workflowId}": in remote mode the console decides agent runs only; resume it on the Mastra server at ${server.url}.`,
    );
  }
  let agents;
  try {
    agents = await listRemoteAgents(server);
  } catch (error) {
    throw notSent(server, error, "Nothing was decided");
  }
  if (!agents.some((agent) => agent.id === ownerKey)) {
    const served = agents.map((agent) => `"${agent.id}"`).join(", ") || "none";
    throw new DecisionError(
      "unknown_agent",
      `This run belongs to agent "${ownerKey}", which the Mastra server at ${server.url} does not serve (it serves ${served}). Nothing was decided.`,
    );
  }
  return { kind: "remote", id: ownerKey, server, databaseUrl };
}

/**
 * The resume schema Mastra recorded in the run's snapshot when the tool suspended (the one the
 * resume editor checks as the reviewer types). Read from the shared database rather than the
 * server's tool endpoint: it is the schema of the tool version this run waits on, it needs no
 * round trip (nor a server that is up) before the decision is recorded, and the endpoint is keyed
 * by the tool's id where runs name its key.
 */
export async function remoteResumeSchema(owner: RemoteOwner, runId: string, call: AgentRunToolCall): Promise<StandardSchema | undefined> {
  const run = await getSuspendedRun(runId, owner.databaseUrl);
  const jsonSchema = run?.toolCalls.find((pending) => pending.toolCallId === call.toolCallId)?.resumeSchema;
  if (typeof jsonSchema !== "object" || jsonSchema === null) return undefined;
  try {
    return z.fromJSONSchema(jsonSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return undefined; // a schema zod cannot read: Mastra checks the data on the server
  }
}

const ROUTE: Record<string, string> = {
  approve: "approve-tool-call",
  decline: "decline-tool-call",
  expire: "decline-tool-call",
  resume: "resume-stream",
};

/** Sends the recorded decision to the server and reads the continued run to its end. */
export async function continueRemoteRun(
  db: Pick<Db, "workflowSnapshot">,
  owner: RemoteOwner,
  decision: ToolCallDecision,
  onToolRan: () => Promise<void>,
): Promise<Continued> {
  // Checked right before sending: a durable agent continues whatever call its run waits on.
  const versionBefore = await pendingRowVersion(db, decision);
  if (versionBefore === null) {
    throw new DecisionError("tool_call_not_pending", `Run "${decision.runId}" no longer waits on tool call "${decision.toolCallId}".`);
  }
  const { server } = owner;
  const target = { runId: decision.runId, toolCallId: decision.toolCallId };
  const body = declinesCall(decision.action)
    ? { ...target, reason: decision.reason ?? undefined }
    : decision.action === "resume"
      ? { ...target, resumeData: JSON.parse(decision.resumeData ?? "null") as unknown }
      : target;
  const client = remoteClient(server, AbortSignal.timeout(server.timeoutMs));
  let response: Response;
  try {
    response = await client.request<Response>(`/agents/${encodeURIComponent(owner.id)}/${ROUTE[decision.action]}`, {
      method: "POST",
      body,
      stream: true,
    });
  } catch (error) {
    throw requestFailure(owner, decision, error);
  }
  failpoint("after-send");
  let continued: Continued;
  try {
    continued = await readAgentStream({ fullStream: serverSentChunks(response) }, decision.toolCallId, onToolRan);
  } catch (error) {
    if (error instanceof DecisionError) throw error;
    throw answerLost(server, error);
  }
  // A durable agent answers before it stores the run's next position (run-position.ts).
  await durableRunWritten(db, decision.runId, versionBefore);
  return continued;
}

/**
 * The chunks of a Mastra server's event stream (`data: {json}` events, then `data: [DONE]`, which
 * the adapter writes only after the agent's stream ended normally). A stream that ends without it,
 * or breaks off, throws: the answer is incomplete.
 */
async function* serverSentChunks(response: Response): AsyncGenerator<unknown> {
  if (!response.body) throw new Error("the server answered without a body");
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    const events = buffer.split("\n\n");
    buffer = events.pop() ?? "";
    for (const event of events) {
      const data = event
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      if (data === "[DONE]") return;
      if (data) yield JSON.parse(data) as unknown;
    }
  }
  throw new Error("the answer ended before the agent finished");
}

/** A request the server did not take (or answered with an error before the agent continued). */
function requestFailure(owner: RemoteOwner, decision: ToolCallDecision, error: unknown): DecisionError {
  const { server } = owner;
  const status = (error as { status?: number }).status;
  if (status === undefined) return networkCode(error) ? notSent(server, error, "The decision was not sent") : answerLost(server, error);
  const said = serverMessage(error);
  if (status === 404) {
    return new DecisionError(
      "unknown_agent",
      `The Mastra server at ${server.url} answered 404 for agent "${owner.id}" (${said}): it does not serve this agent, or MASTRA_SERVER_URL does not point at Mastra's API. The decision was not carried out.`,
    );
  }
  if (status === 403 && /durable run/i.test(said)) {
    // Mastra's server (1.67) continues a durable agent's run only for a caller scoped to the run's
    // resource (its auth's mapUserToResourceId); a service caller like the console is refused.
    return new DecisionError(
      "agent_failed",
      `The Mastra server at ${server.url} refused to continue this durable agent's run (403: ${said}): Mastra's server lets only a caller signed in for the run's resource continue a durable run. Nothing was carried out.`,
    );
  }
  if (status === 401 || status === 403) return notSent(server, error, "The decision was not carried out");
  // Mastra answers a run or call it cannot resume with a 500 and the reason (Mastra 1.71).
  if (/could not find a suspended run/i.test(said)) {
    return new DecisionError("run_not_found", `The Mastra server no longer has run "${decision.runId}" suspended: ${said}`);
  }
  if (/not suspended/i.test(said)) {
    return new DecisionError("tool_call_not_pending", `The Mastra server says tool call "${decision.toolCallId}" is not pending: ${said}`);
  }
  return new DecisionError("agent_failed", `The Mastra server at ${server.url} could not continue the run (${status}): ${said}`);
}

/** Refused or unreachable before anything reached the agent: `outcome` says what that means here. */
function notSent(server: RemoteServer, error: unknown, outcome: string): DecisionError {
  const status = (error as { status?: number }).status;
  if (status === 401 || status === 403) {
    return new DecisionError(
      "agent_failed",
      `The Mastra server at ${server.url} refused the console's credentials (${status}: ${serverMessage(error)}): check MASTRA_SERVER_TOKEN / MASTRA_SERVER_HEADERS. ${outcome}.`,
    );
  }
  if (status === 404) {
    return new DecisionError(
      "agent_failed",
      `The Mastra server at ${server.url} answered 404 to GET /api/agents: MASTRA_SERVER_URL does not point at Mastra's API. ${outcome}.`,
    );
  }
  const why = networkCode(error) ?? (status ? `${status}: ${serverMessage(error)}` : describe(error));
  return new DecisionError(
    "agent_failed",
    `The Mastra server at ${server.url} could not be reached (${why}). ${outcome}; try again once it is back.`,
  );
}

function answerLost(server: RemoteServer, error: unknown): AnswerLostError {
  const why = isTimeout(error) ? `no answer within ${Math.round(server.timeoutMs / 1000)} s` : (networkCode(error) ?? describe(error));
  return new AnswerLostError(
    `The Mastra server at ${server.url} stopped answering after the decision was sent (${why}): its tool may have run. ` +
      `The console settles this decision by itself within ${Math.ceil(decisionLeaseMs() / 1000)} s: applied if the run went on, ` +
      `otherwise released and marked "may have run" (a decline is sent again).`,
  );
}

/** Connection errors where the request cannot have reached the server. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

function networkCode(error: unknown): string | undefined {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code && UNREACHABLE.has(code) ? code : undefined;
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return name === "TimeoutError" || name === "AbortError";
}

function serverMessage(error: unknown): string {
  const body = (error as { body?: { error?: unknown; message?: unknown } }).body;
  const said = body?.error ?? body?.message;
  if (typeof said === "string") return said;
  // A body that is not JSON (a proxy's or an auth middleware's page): the status text says enough.
  return (error as { statusText?: string }).statusText || describe(error);
}
