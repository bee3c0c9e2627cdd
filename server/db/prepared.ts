import { randomUUID } from 'node:crypto';
import { type Compilable, CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

/** Marks the place of argument `i` while the query is built once (a nonce no real value carries). */
const NONCE = randomUUID();
const slot = (i: number) => `prepared-arg:${NONCE}:${i}`;
const SLOT = new RegExp(`^prepared-arg:${NONCE}:(\\d+)$`);

interface Template {
  sql: string;
  /** Per parameter: the argument it takes, or a constant of the query itself. */
  params: ({ arg: number } | { value: unknown })[];
}

/**
 * A hot query built and compiled once per SQL dialect, then run with new arguments: Kysely builds
 * and compiles every query on every call, ~12 µs each, a sixth of a film list's CPU
 * (docs/performance.md, "The API"). `build` receives placeholders for its arguments and must use
 * each as a plain value (`where(col, '=', arg)`), not in `in (…)` lists or computed expressions.
 */
export function prepared<A extends unknown[], R>(
  build: (db: Db, ...args: A) => Compilable<R>,
): (db: Db, ...args: A) => Promise<R[]> {
  const templates = new Map<unknown, Template>();
  return async (db, ...args) => {
    const dialect = db.getExecutor().adapter.constructor;
    let template = templates.get(dialect);
    if (!template) {
      const compiled = build(db, ...(args.map((_, i) => slot(i)) as A)).compile();
      template = {
        sql: compiled.sql,
        params: compiled.parameters.map((p) => {
          const m = typeof p === 'string' ? SLOT.exec(p) : null;
          return m ? { arg: Number(m[1]) } : { value: p };
        }),
      };
      const used = new Set(template.params.flatMap((p) => ('arg' in p ? [p.arg] : [])));
      if (used.size !== args.length)
        throw new Error(`prepared query: ${args.length - used.size} argument(s) not used as plain values`);
      templates.set(dialect, template);
    }
    const params = template.params.map((p) => ('arg' in p ? args[p.arg] : p.value));
    const result = await db.executeQuery<R>(CompiledQuery.raw(template.sql, params));
    return result.rows;
  };
}
