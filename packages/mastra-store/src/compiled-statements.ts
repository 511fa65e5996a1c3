/** Compiled SQLite statements kept per connection (sqlite-adapter.ts): ours, and the Prisma client's. */
import type { ColumnDefinition, RunResult, Statement } from "better-sqlite3";

/**
 * How many compiled statements a connection keeps: the store's hot statements, the queue's filter
 * combinations, and Prisma's queries (one per shape, and per length of an `IN (…)` list).
 */
const COMPILED_STATEMENTS_KEPT = 500;

/**
 * Statements compiled once per connection and kept, least recently used dropped first. Prisma's
 * adapter compiles every statement anew, and SQLite compiles each trigger of a table into a write
 * to it: for the snapshot upsert (store migrations 0001-0005) that compilation was 1 ms of a 1.3 ms
 * write, on every agent step. Used for the statements sent without the Prisma client (database.ts),
 * whose arguments and rows this converts as Prisma's adapter does, and, through KeptStatement, for
 * the Prisma client's own queries.
 */
export class CompiledStatements {
  readonly #prepare: (sql: string) => Statement;
  readonly #kept = new Map<string, Statement>();

  constructor(prepare: (sql: string) => Statement) {
    this.#prepare = prepare;
  }

  get(sql: string): Statement {
    let statement = this.#kept.get(sql);
    if (statement) {
      this.#kept.delete(sql);
    } else {
      statement = this.#prepare(sql);
      if (this.#kept.size >= COMPILED_STATEMENTS_KEPT) this.#kept.delete(this.#kept.keys().next().value!);
    }
    this.#kept.set(sql, statement);
    return statement;
  }
}

/**
 * What Prisma's adapter gets from its connection's `prepare`: the kept compiled statement, behind
 * the few members the adapter uses (`prepare(sql).bind(args)`, then `reader`, `run`, `columns`,
 * `raw().all()`). better-sqlite3's `bind` fixes arguments on a statement for good, so they are kept
 * here and passed on each call instead; the raw mode is set on every read, since the statement is shared.
 */
export class KeptStatement {
  readonly #statement: Statement;
  #args: unknown[] = [];
  #raw = false;

  constructor(statement: Statement) {
    this.#statement = statement;
  }

  get reader(): boolean {
    return this.#statement.reader;
  }

  bind(...args: unknown[]): this {
    this.#args = args;
    return this;
  }

  raw(toggle = true): this {
    this.#raw = toggle;
    return this;
  }

  columns(): ColumnDefinition[] {
    return this.#statement.columns();
  }

  run(): RunResult {
    return this.#statement.run(...this.#args);
  }

  all(): unknown[] {
    return this.#statement.raw(this.#raw).all(...this.#args);
  }
}
