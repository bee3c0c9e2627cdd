/**
 * Child of `npm run bench:scale`: the producer service as bench/api-server.ts runs it (production
 * defaults, on SQLite or PostgreSQL by `BENCH_ENGINE`), with the demo films cloned to `BENCH_FILMS`
 * films (rows only: the clones share the demo films' media). Answers the bench's commands:
 *  - `seed {runs}`: a new learner with that many runs in part two, written straight into the tables
 *    (tests/server/support/history.ts), spread round robin over every film; answers the account;
 *  - `idle`: answers once the background renders a report started are done;
 *  - `count-start` / `count-stop`: the SQL statements sent meanwhile;
 *  - `cpu-start` / `cpu-stop`: the CPU time this process used meanwhile (bench/child.ts);
 *  - `loop-start` / `loop-stop`: the longest event-loop block meanwhile (perf_hooks
 *    monitorEventLoopDelay, 1 ms resolution), in ms.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { createUser } from '../server/auth/users';
import { seedHistory } from '../tests/server/support/history';
import { startCounting, stopCounting } from '../tests/server/support/statements';
import { startTestServer, type TestEngine } from '../tests/support/server';
import { closeOnSignal, serveCommands, serveProfilerCommands } from './child';

const engine = (process.env.BENCH_ENGINE ?? 'sqlite') as TestEngine;
const filmCount = Number(process.env.BENCH_FILMS ?? 10);
const server = await startTestServer({
  engine,
  importDemo: true,
  env: {
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // Own process: production's load shedding back on (bench/api-server.ts).
    MAX_EVENT_LOOP_DELAY_MS: '1000',
    TRUST_PROXY: 'loopback',
  },
});
const db = server.app.db;

/** Clones of the part-two demo films (new ids, same media) up to `filmCount`, listed after the originals. */
async function cloneFilms(): Promise<void> {
  const demo = await db
    .selectFrom('films')
    .selectAll()
    .where('parts', 'like', '%"prpt"%')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (let k = 0; demo.length + k < filmCount; k++) {
    const film = demo[k % demo.length];
    const id = `${film.id}-copy${k}`;
    const rename = (rowId: string) => `${id}${rowId.slice(film.id.length)}`;
    const created = new Date(Date.parse('2030-01-01T00:00:00.000Z') + k * 1000).toISOString();
    const [lines, questions] = await Promise.all([
      db.selectFrom('subtitles').selectAll().where('film_id', '=', film.id).execute(),
      db.selectFrom('questions').selectAll().where('film_id', '=', film.id).execute(),
    ]);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('films')
        .values({ ...film, id, created_at: created, updated_at: created })
        .execute();
      await trx
        .insertInto('subtitles')
        .values(lines.map((l) => ({ ...l, id: rename(l.id), film_id: id })))
        .execute();
      if (questions.length)
        await trx
          .insertInto('questions')
          .values(questions.map((q) => ({ ...q, id: rename(q.id), film_id: id })))
          .execute();
    });
  }
}

await cloneFilms();
const films = await db
  .selectFrom('films')
  .innerJoin('subtitles', 'subtitles.film_id', 'films.id')
  .select(['films.id', (eb) => eb.fn.min('subtitles.id').as('lineId')])
  .where('films.parts', 'like', '%"prpt"%')
  .groupBy('films.id')
  .execute();

const loop = monitorEventLoopDelay({ resolution: 1 });
serveProfilerCommands();
let learners = 0;
serveCommands({
  seed: async (m) => {
    learners += 1;
    const account = `scale${learners}`;
    const password = 'scale-pass-1';
    const user = await createUser(db, { account, password });
    const runs = Number(m.runs);
    if (runs > 0)
      await seedHistory(db, {
        userId: user.id,
        part: 'prpt',
        films: films.map((f) => ({ id: f.id, lineId: String(f.lineId) })),
        runs,
      });
    // A deployment's tables have statistics (autovacuum analyses them); a fresh bulk load not yet.
    if (engine === 'postgres') await sql`analyze`.execute(db);
    return { account, password, films: films.length };
  },
  // Background work a call started (the report's dubbed-video render) done, so the next count and
  // the next row see only their own requests.
  idle: () => server.app.renders.idle(),
  'count-start': () => startCounting(),
  'count-stop': () => stopCounting().map((s) => s.sql),
  'loop-start': () => {
    loop.reset();
    loop.enable();
  },
  'loop-stop': () => {
    loop.disable();
    return loop.max / 1e6;
  },
});
closeOnSignal(server.close);
process.send?.({ ready: { url: server.url, engine } });
