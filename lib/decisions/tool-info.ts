/**
 * "About this tool": what the tool a call waits on says about itself (its description, and each
 * argument's type and description from its input schema), read from the registered tool (the
 * console's own agents, a sub-agent's for a delegated call, a workflow's step) or, in remote mode,
 * from the team's Mastra server (GET /api/agents/<id>, its tools' serialised schemas). Kept per
 * process for a minute: a server's tools change with its deploys, not per request.
 */
import type { AgentRunToolCall } from "@agent-approvals/mastra-store";
import { z } from "zod";
import { remoteClient } from "../mastra/remote.ts";
import { processCache } from "../process-cache.ts";
import type { ToolField, ToolInfo } from "../runs/conversation-dto.ts";
import { resolveOwner, stepOf, toolOwner, type RunOwner } from "./owners.ts";

const FRESH_MS = 60_000;
/** Arguments listed, however large the schema: the rest are in the arguments themselves. */
const MAX_FIELDS = 60;
const MAX_DEPTH = 3;
const REMOTE_TIMEOUT_MS = 5_000;

type Json = Record<string, unknown>;

const cache = processCache("tool-info", async () => new Map<string, { at: number; info: Promise<ToolInfo | null> }>());

/** The tool `call` of a run owned by `ownerKey` waits on, described; null when nothing describes it. */
export async function toolInfoOf(ownerKey: string, call: AgentRunToolCall, databaseUrl: string): Promise<ToolInfo | null> {
  const toolName = call.path?.at(-1) ?? call.toolName;
  if (!toolName) return null;
  const key = JSON.stringify([databaseUrl, ownerKey, call.path ?? [], call.step ?? [], toolName]);
  const entries = await cache("all");
  const cached = entries.get(key);
  if (cached && Date.now() - cached.at < FRESH_MS) return cached.info;
  const info = describeTool(ownerKey, call, toolName, databaseUrl).catch(() => null);
  entries.set(key, { at: Date.now(), info });
  return info;
}

async function describeTool(ownerKey: string, call: AgentRunToolCall, toolName: string, databaseUrl: string): Promise<ToolInfo | null> {
  const owner: RunOwner = await resolveOwner(ownerKey, databaseUrl);
  if (owner.kind === "remote") return remoteTool(owner, call, toolName);
  if (owner.kind === "workflow") {
    const step = stepOf(owner.workflow, call.step ?? []) as { description?: unknown; inputSchema?: unknown } | undefined;
    return step ? described(toolName, step.description, jsonSchemaOf(step.inputSchema), "registered") : null;
  }
  const { agent, toolName: name } = await toolOwner(owner.agent, call);
  const tools = agent ? ((await agent.listTools()) as Record<string, { description?: unknown; inputSchema?: unknown }>) : {};
  const tool = name ? tools[name] : undefined;
  return tool ? described(toolName, tool.description, jsonSchemaOf(tool.inputSchema), "registered") : null;
}

/** The tool as the team's Mastra server describes it: the sub-agent's for a delegated call. */
async function remoteTool(
  owner: Extract<RunOwner, { kind: "remote" }>,
  call: AgentRunToolCall,
  toolName: string,
): Promise<ToolInfo | null> {
  const agentId = call.path && call.path.length > 2 ? call.path.at(-2)! : owner.id;
  const details = (await remoteClient(owner.server, AbortSignal.timeout(REMOTE_TIMEOUT_MS)).getAgent(agentId).details()) as {
    tools?: Record<string, { id?: string; description?: unknown; inputSchema?: unknown }>;
  };
  const tools = details.tools ?? {};
  const tool = tools[toolName] ?? Object.values(tools).find((candidate) => candidate.id === toolName);
  if (!tool) return null;
  return described(toolName, tool.description, parseServedSchema(tool.inputSchema), "server");
}

/** The server sends schemas as JSON text (superjson's `{ json }` envelope, or plain). */
function parseServedSchema(schema: unknown): unknown {
  let value = schema;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return isObject(value) && isObject(value.json) && !("type" in value) ? value.json : value;
}

function jsonSchemaOf(schema: unknown): unknown {
  if (schema instanceof z.ZodType) return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return isObject(schema) && ("properties" in schema || "type" in schema) ? schema : undefined;
}

function described(toolName: string, description: unknown, schema: unknown, source: ToolInfo["source"]): ToolInfo {
  return {
    toolName,
    description: typeof description === "string" && description.trim() ? description.trim() : null,
    fields: fieldsOf(schema),
    source,
  };
}

/** A JSON Schema's properties, nested objects' ones dotted, in declaration order. */
function fieldsOf(schema: unknown, prefix = "", depth = 0, fields: ToolField[] = []): ToolField[] {
  if (!isObject(schema) || !isObject(schema.properties) || depth >= MAX_DEPTH) return fields;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : []);
  for (const [name, property] of Object.entries(schema.properties)) {
    if (fields.length >= MAX_FIELDS) break;
    if (!isObject(property)) continue;
    const path = `${prefix}${name}`;
    fields.push({
      path,
      type: typeOf(property),
      description: typeof property.description === "string" && property.description ? property.description : null,
      required: required.has(name),
    });
    fieldsOf(property, `${path}.`, depth + 1, fields);
  }
  return fields;
}

function typeOf(property: Json): string {
  if (Array.isArray(property.enum)) return property.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (property.const !== undefined) return JSON.stringify(property.const);
  const variants = property.anyOf ?? property.oneOf;
  if (Array.isArray(variants)) return variants.map((variant) => (isObject(variant) ? typeOf(variant) : "?")).join(" | ");
  const type = Array.isArray(property.type) ? property.type.join(" | ") : typeof property.type === "string" ? property.type : "any";
  if (type === "array" && isObject(property.items)) return `${typeOf(property.items)}[]`;
  return type;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
