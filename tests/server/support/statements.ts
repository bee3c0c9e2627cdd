/**
 * The SQL statements a server in this process sends, with their parameters, and their query plans.
 * Every statement reaches the database through a better-sqlite3 statement run (the server reuses
 * prepared statements, server/db/connect.ts) or pg's `Client.query`, as bench/api-server.ts counts them.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { TestServer } from '../../support/server';

export interface SentStatement {
  sql: string;
  params: unknown[];
}

let sink: SentStatement[] | null = null;

const Statement = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1')) as Record<
  'all' | 'get' | 'run' | 'iterate',
  (this: SQLite.Statement, ...a: unknown[]) => unknown
>;
for (const method of ['all', 'get', 'run', 'iterate'] as const) {
  const original = Statement[method];
  Statement[method] = function (this: SQLite.Statement, ...args: unknown[]) {
    sink?.push({ sql: this.source, params: Array.isArray(args[0]) ? args[0] : args });
    return original.apply(this, args);
  };
}
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  // A statement as text and parameters, or as a named (prepared) query (server/db/connect.ts).
  const [first, second] = args as [unknown, unknown];
  if (typeof first === 'string') sink?.push({ sql: first, params: (second as unknown[]) ?? [] });
  else if (first && typeof first === 'object' && 'text' in first) {
    const q = first as { text: string; values?: unknown[] };
    sink?.push({ sql: q.text, params: q.values ?? [] });
  }
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

/** Starts recording the statements sent; `stopCounting` answers them (benches count per request). */
export function startCounting(): void {
  sink = [];
}

export function stopCounting(): SentStatement[] {
  const sent = sink ?? [];
  sink = null;
  return sent;
}

/** The statements sent while `fn` runs (one call at a time: nothing else may use the database). */
export async function statementsOf(fn: () => Promise<unknown>): Promise<SentStatement[]> {
  startCounting();
  try {
    await fn();
  } catch (err) {
    stopCounting();
    throw err;
  }
  return stopCounting();
}

/** One access to a table in a plan: how it is read, by which index and on which key. */
export interface Access {
  table: string;
  /** 'scan' = every row (or every index entry); 'search' = by an index key. */
  how: 'scan' | 'search';
  index: string | null;
  /** The key columns the index is searched by (`user_id=? AND part=?`, PostgreSQL's Index Cond). */
  key: string;
  /** The plan sorts this access's rows (a temporary B-tree, a Sort node above it). */
  sorted: boolean;
  /** The access sits under a LIMIT that stops it (PostgreSQL's Limit node, SQLite: the statement has one). */
  limited: boolean;
  /** The index alone answers it, the table's rows unread (SQLite's COVERING INDEX, PostgreSQL's Index Only Scan). */
  covering: boolean;
}

/** Aliases of the tables a Kysely statement names (`from "runs" as "r"`). */
function aliases(sql: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of sql.matchAll(/(?:from|join)\s+"(\w+)"(?:\s+as\s+"(\w+)")?/gi)) out.set(m[2] ?? m[1], m[1]);
  return out;
}

/** EXPLAIN QUERY PLAN (SQLite) of one statement, as accesses. */
export function sqlitePlan(server: TestServer, s: SentStatement): Access[] {
  const db = new SQLite(`${server.config.dataDir}/app.sqlite`, { readonly: true });
  try {
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params) as {
      parent: number;
      detail: string;
    }[];
    const names = aliases(s.sql);
    // A temporary B-tree sorts the rows of its own query level (a correlated subquery's sort is its own).
    const sortedLevels = new Set(
      rows.filter((r) => /TEMP B-TREE FOR (ORDER BY|GROUP BY|DISTINCT)/.test(r.detail)).map((r) => r.parent),
    );
    const limited = /\blimit\b/i.test(s.sql);
    return rows.flatMap((r) => {
      const m =
        /^(SCAN|SEARCH) (\w+)(?: USING (COVERING )?(?:PRIMARY KEY|INTEGER PRIMARY KEY)?(?:INDEX (\w+))?)?(?: \((.*)\))?/.exec(
          r.detail,
        );
      if (!m) return [];
      return [
        {
          table: names.get(m[2]) ?? m[2],
          how: m[1] === 'SCAN' ? 'scan' : 'search',
          index: m[4] ?? null,
          key: m[5] ?? '',
          sorted: sortedLevels.has(r.parent),
          limited,
          covering: m[3] !== undefined,
        } as Access,
      ];
    });
  } finally {
    db.close();
  }
}

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PgNode[];
}

/**
 * EXPLAIN (PostgreSQL) of one statement with sequential scans priced out (`enable_seqscan = off`):
 * on tables of a few thousand rows the planner rightly prefers reading them whole, so the question
 * asked is whether an index serves the statement at all. A Seq Scan left in the plan means none does.
 */
export async function postgresPlan(client: pg.Client, s: SentStatement): Promise<Access[]> {
  const res = await client.query(`EXPLAIN (FORMAT JSON) ${s.sql}`, s.params);
  const root = (res.rows[0]['QUERY PLAN'] as { Plan: PgNode }[])[0].Plan;
  const out: Access[] = [];
  const walk = (node: PgNode, sorted: boolean, limited: boolean) => {
    const type = node['Node Type'];
    const isSort = type === 'Sort' || type === 'Incremental Sort';
    if (node['Relation Name']) {
      out.push({
        table: node['Relation Name'],
        how: /Index|Bitmap Heap/.test(type) ? 'search' : 'scan',
        index: node['Index Name'] ?? null,
        // A Bitmap Heap Scan's key is its Recheck Cond (the Bitmap Index Scan under it).
        key: node['Index Cond'] ?? node['Recheck Cond'] ?? '',
        sorted,
        limited,
        covering: type === 'Index Only Scan',
      });
    }
    for (const child of node.Plans ?? []) walk(child, sorted || isSort, limited || type === 'Limit');
  };
  walk(root, false, false);
  return out;
}
