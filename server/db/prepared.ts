import { randomUUID } from 'node:crypto';
import { type Compilable, CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { sqliteDirect } from './connect';
import type { Database } from './schema';

type Db = Kysely<Database> | Transaction<Database>;

/** Marks the place of argument `i` (item `j` of a list argument) while the query is built once. */
const NONCE = randomUUID();
const slot = (i: number, j?: number) => `prepared-arg:${NONCE}:${i}${j === undefined ? '' : `:${j}`}`;
const SLOT = new RegExp(`^prepared-arg:${NONCE}:(\\d+)(?::(\\d+))?$`);

interface Template {
  sql: string;
  /** Per parameter: the argument it takes (an item of it for a list), or a constant of the query. */
  params: ({ arg: number; item?: number } | { value: unknown })[];
}

/** Shapes (list lengths) kept per query and dialect; past it they start over (a page has ≤ 100 films). */
const SHAPES = 200;

/**
 * A hot query built and compiled once per SQL dialect, then run with new arguments: Kysely builds
 * and compiles every query on every call, ~12 µs each, a sixth of a film list's CPU
 * (docs/performance.md, "The API"). `build` receives placeholders for its arguments and must use
 * each as a plain value (`where(col, '=', arg)`), not in computed expressions. An array argument
 * may be used as an `in (…)` list: the query is compiled once per list length.
 */
export function prepared<A extends unknown[], R>(
  build: (db: Db, ...args: A) => Compilable<R>,
): (db: Db, ...args: A) => Promise<R[]> {
  const templates = new Map<unknown, Map<string, Template>>();
  return async (db, ...args) => {
    const dialect = db.getExecutor().adapter.constructor;
    let shapes = templates.get(dialect);
    if (!shapes) {
      shapes = new Map();
      templates.set(dialect, shapes);
    }
    const shape = args.map((a) => (Array.isArray(a) ? a.length : '')).join(',');
    let template = shapes.get(shape);
    if (!template) {
      const placeholders = args.map((a, i) => (Array.isArray(a) ? a.map((_, j) => slot(i, j)) : slot(i)));
      const compiled = build(db, ...(placeholders as A)).compile();
      template = {
        sql: compiled.sql,
        params: compiled.parameters.map((p) => {
          const m = typeof p === 'string' ? SLOT.exec(p) : null;
          if (!m) return { value: p };
          return m[2] === undefined ? { arg: Number(m[1]) } : { arg: Number(m[1]), item: Number(m[2]) };
        }),
      };
      const used = new Set(template.params.flatMap((p) => ('arg' in p ? [slot(p.arg, p.item)] : [])));
      const expected = placeholders.flat().length;
      if (used.size !== expected)
        throw new Error(`prepared query: ${expected - used.size} argument(s) not used as plain values`);
      if (shapes.size >= SHAPES) shapes.clear();
      shapes.set(shape, template);
    }
    const params = template.params.map((p) =>
      'arg' in p ? (p.item === undefined ? args[p.arg] : (args[p.arg] as unknown[])[p.item]) : p.value,
    );
    // On SQLite outside any transaction, the statement runs on the connection at once: Kysely's
    // connection lock, driver and result promises cost more than a page's statement itself. It
    // reads what is committed, as it would after waiting for the lock; within a transaction, or
    // while one is open on the connection, it waits its turn through Kysely.
    const direct = db.isTransaction ? undefined : sqliteDirect(db as Kysely<Database>);
    if (direct && !direct.connection.inTransaction) {
      const stmt = direct.prepare(template.sql);
      if (stmt.reader) return stmt.all(params) as R[];
    }
    const result = await db.executeQuery<R>(CompiledQuery.raw(template.sql, params));
    return result.rows;
  };
}
