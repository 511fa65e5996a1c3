/**
 * The conditions a suggested rule may put on a call's arguments (proposals.ts), read off the calls
 * people decided in one group (an agent, a tool, a resource scope). Pure.
 *
 * Only top-level fields of the arguments that every call of the group has, as a scalar:
 * - a field with at most MAX_VALUES distinct values in the group (a currency, a reason picked from a
 *   list, a flag) is low-cardinality: the rule holds it to the values seen on the calls decided its
 *   way (`equals` one value, `in` several), and each of those values alone is a candidate too;
 * - a number with more distinct values (an amount) gets, in a rule that approves, an upper bound:
 *   `<=` the largest value people approved among the calls the other conditions let through.
 * Anything else (ids, free text, nested objects) is left free.
 */
import { parsePath } from "./path.ts";
import type { Condition } from "./validations.ts";
import { MAX_CONDITIONS } from "./validations.ts";

export const MAX_VALUES = 5;
/** The longest string an `equals` condition may hold (lib/rules/validations.ts). */
const MAX_VALUE_CHARS = 1000;

type Scalar = string | number | boolean | null;

interface Field {
  path: string;
  /** The distinct values, up to MAX_VALUES + 1 (more means "high-cardinality"). */
  values: Scalar[];
  numeric: boolean;
}

export interface DecidedCall {
  args: unknown;
  action: string;
}

const isScalar = (value: unknown): value is Scalar =>
  value === null ||
  typeof value === "boolean" ||
  (typeof value === "number" && Number.isFinite(value)) ||
  (typeof value === "string" && value.length <= MAX_VALUE_CHARS);

/** The top-level scalar fields every call has, in path order. */
function fieldsOf(calls: readonly DecidedCall[]): Field[] {
  const first = calls[0]?.args;
  if (first === null || typeof first !== "object" || Array.isArray(first)) return [];
  const fields: Field[] = [];
  for (const path of Object.keys(first).sort()) {
    const steps = parsePath(path);
    if (!steps || steps.length !== 1 || steps[0] !== path) continue;
    const values = new Set<Scalar>();
    let numeric = true;
    let usable = true;
    for (const call of calls) {
      const args = call.args as Record<string, unknown> | null;
      const value = args !== null && typeof args === "object" && !Array.isArray(args) && Object.hasOwn(args, path) ? args[path] : undefined;
      if (!isScalar(value)) {
        usable = false;
        break;
      }
      if (typeof value !== "number") numeric = false;
      if (values.size <= MAX_VALUES) values.add(value);
    }
    if (usable) fields.push({ path, values: [...values], numeric });
  }
  return fields;
}

const valueOf = (call: DecidedCall, path: string) => (call.args as Record<string, unknown>)[path] as Scalar;
/** Values in a stable order: numbers, then strings, booleans, null. */
const sorted = (values: Scalar[]) =>
  [...values].sort((a, b) => (typeof a === typeof b ? (a! < b! ? -1 : a! > b! ? 1 : 0) : String(typeof a) < String(typeof b) ? -1 : 1));

function valueCondition(path: string, values: Scalar[]): Condition {
  return values.length === 1 ? { path, op: "equals", value: values[0] } : { path, op: "in", value: sorted(values) };
}

/** A candidate's conditions, and how many calls decided its way they let through (each a call it would have agreed with). */
export interface CandidateConditions {
  effect: "approve" | "decline";
  conditions: Condition[];
  agreeing: number;
}

/**
 * The candidate condition lists over `calls` (every person-decided call of a group), for each way:
 * the base one (each low-cardinality field held to the values decided that way), then one per value
 * of each field with several. A rule that approves also bounds each high-cardinality number. Lists
 * that no call decided that way satisfies are left out. The fields are read once for both ways.
 */
export function candidateConditions(calls: readonly DecidedCall[]): CandidateConditions[] {
  const fields = fieldsOf(calls);
  const lowCardinality = fields.filter((field) => field.values.length <= MAX_VALUES);
  const amounts = fields.filter((field) => field.numeric && field.values.length > MAX_VALUES);
  return (["approve", "decline"] as const).flatMap((effect) => {
    const decidedThisWay = calls.filter((call) => call.action === effect);
    const base = new Map(
      lowCardinality.map((field) => [field.path, [...new Set(decidedThisWay.map((call) => valueOf(call, field.path)))]]),
    );
    const variants: Array<Map<string, Scalar[]>> = [base];
    for (const [path, values] of base) {
      if (values.length < 2) continue;
      for (const value of sorted(values)) variants.push(new Map([...base, [path, [value]]]));
    }
    const candidates: CandidateConditions[] = [];
    for (const held of variants) {
      const checks = [...held];
      const through = decidedThisWay.filter((call) => checks.every(([path, values]) => values.includes(valueOf(call, path))));
      if (through.length === 0) continue;
      // Bounds first: past MAX_CONDITIONS an equality is dropped (a broader rule), never a bound.
      const bounds: Condition[] =
        effect === "approve"
          ? amounts.map((amount) => ({
              path: amount.path,
              op: "<=",
              value: through.reduce((largest, call) => Math.max(largest, valueOf(call, amount.path) as number), -Infinity),
            }))
          : [];
      const conditions = [...bounds, ...checks.map(([path, values]) => valueCondition(path, values))].slice(0, MAX_CONDITIONS);
      candidates.push({ effect, conditions, agreeing: through.length });
    }
    return candidates;
  });
}
