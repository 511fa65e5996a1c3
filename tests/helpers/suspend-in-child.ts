/**
 * Runs one agent to suspension in its own process and exits, printing `{ runId, toolCallId }`:
 * proof that a suspended run outlives the process that started it.
 * Usage: suspend-in-child.ts <databaseUrl> <agent> <text> <thread> <resource>
 */
import { createTestMastra, suspendRun, type TestAgentKey } from "./agents.ts";

const [databaseUrl, agent, text, thread, resource] = process.argv.slice(2) as [string, TestAgentKey, string, string, string];
const mastra = await createTestMastra(databaseUrl);
const call = await suspendRun(mastra, agent, text, { thread, resource });
console.log(JSON.stringify(call));
process.exit(0);
