/**
 * One change or read of the console's configuration, as both faces of it run it: the page's server
 * action (defineAction) and the JSON API's route (lib/actions/json-route.ts). The permission, the
 * input schema and the body live here once, so a route can never be laxer than its page.
 */
import type { z } from "zod";
import type { Permission } from "../auth/roles.ts";
import type { Actor } from "../auth/session.ts";
import { invalidInput, parseInput, runAction, type ActionResult } from "./result.ts";

export interface Operation<Schema extends z.ZodType, Output> {
  name: string;
  permission: Permission;
  input: Schema;
  /**
   * Takes text as found, NUL and lone surrogates too, because it reports such a value itself instead
   * of refusing the request (the runs table reads its URL's parameters as the page does). Every other
   * operation refuses them anywhere in its input (result.ts `parseInput`).
   */
  lenientText?: boolean;
  run: (input: z.output<Schema>, context: { actor: Actor }) => Promise<Output>;
}

export function operation<Schema extends z.ZodType, Output>(definition: Operation<Schema, Output>): Operation<Schema, Output> {
  return definition;
}

/** The input against the schema, then the body; the caller has checked `permission` already. */
export async function runOperation<Schema extends z.ZodType, Output>(
  { name, input, lenientText, run }: Operation<Schema, Output>,
  actor: Actor,
  raw: unknown,
): Promise<ActionResult<Output>> {
  if (lenientText) {
    const parsed = input.safeParse(raw);
    if (!parsed.success) return invalidInput(parsed.error);
    return runAction(name, () => run(parsed.data, { actor }));
  }
  const parsed = parseInput(input, raw);
  if (!parsed.ok) return parsed;
  return runAction(name, () => run(parsed.data, { actor }));
}
