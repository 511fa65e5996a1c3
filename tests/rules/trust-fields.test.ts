/**
 * What "Approve and trust" offers to tick (lib/rules/trust-fields.ts): the call's scalar arguments,
 * top-level and nested, with paths a rule condition reads back to the same value (lib/rules/path.ts).
 */
import { describe, expect, it } from "vitest";
import { parsePath, valueAt } from "../../lib/rules/path.ts";
import { MAX_TRUST_FIELDS, trustableFields } from "../../lib/rules/trust-fields.ts";

describe("the arguments offered as conditions", () => {
  it("scalars at every level, in order, each path leading back to its value", () => {
    const args = {
      amount: 20,
      currency: "EUR",
      express: false,
      note: null,
      customer: { id: "c_1", tier: { name: "gold" } },
      items: [{ sku: "A-1", qty: 2 }, "loose"],
    };
    const fields = trustableFields(args);
    expect(fields).toEqual([
      { path: "amount", value: 20 },
      { path: "currency", value: "EUR" },
      { path: "express", value: false },
      { path: "note", value: null },
      { path: "customer.id", value: "c_1" },
      { path: "customer.tier.name", value: "gold" },
      { path: "items[0].sku", value: "A-1" },
      { path: "items[0].qty", value: 2 },
      { path: "items[1]", value: "loose" },
    ]);
    for (const field of fields) expect(valueAt(args, parsePath(field.path)!)).toBe(field.value);
  });

  it("leaves out what no condition can name or compare", () => {
    const args = {
      "a.b": 1,
      "odd key": 2,
      "0zero": 3,
      long: "x".repeat(1001),
      empty: {},
      list: [],
      deep: { a: { b: { c: { d: { e: { f: 1 } } } } } },
    };
    expect(trustableFields(args)).toEqual([]);
    for (const notAnObject of [null, 5, "text", [1, 2]]) expect(trustableFields(notAnObject)).toEqual([]);
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`f${index}`, index]));
    expect(trustableFields(many)).toHaveLength(MAX_TRUST_FIELDS);
  });
});
