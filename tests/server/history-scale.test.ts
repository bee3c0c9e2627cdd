import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { speechScore } from '../../src/api/contract';
import { saveQuestionRecord } from '../../server/films/answers';
import { listFilms } from '../../server/films/queries';
import { takeAudioKey, storeTake } from '../../server/takes/repository';
import { cleanOrphanTakes } from '../../server/takes/retention';
import { runForTake } from '../../server/takes/runs';
import { startTestServer, type TestServer, testDatabaseUrl } from '../support/server';
import { describeEngines } from './support/engines';
import { seedHistory, type SeededRun } from './support/history';
import { type Client, client } from './support/http';
import { addUser, importFixtureFilm, seededScore } from './support/seed';
import {
  type Access,
  postgresPlan,
  type SentStatement,
  sqlitePlan,
  statementsOf,
} from './support/statements';
import { ALL_RIGHT, HALF_RIGHT } from './support/film-fixture';

const P1 = '/producer/active_relation_one';
const P2 = '/producer/active_relation_two';
const FILMS = ['test-film', 'film-b'];
const LINE = (film: string) => `${film}-1`;
/** The films with the line each seeded take is of (tests/server/support/history.ts). */
const FILM_LINES = FILMS.map((id) => ({ id, lineId: LINE(id) }));
const MANY = 2_000;
const HISTORY_TABLES = new Set(['runs', 'question_records', 'takes', 'film_progress']);

/**
 * An access to a learner's history is bounded by the page it serves when an index finds exactly
 * the rows of the runs it names (by id or run id), of one film (learner, part, film), or walks the
 * learner's runs in index order until a LIMIT stops it. film_progress holds one row per film the
 * learner has run, whatever the number of runs: any index search of it is bounded by the catalogue.
 * What the film list did before film_progress (a subquery per run over all of the learner's answers
 * in the part) fails this, and so does a run's answers sorted to find the latest (without an index
 * led by the run and the answer's time: server/db/migrations/017-latest-answer-index.ts, 018).
 */
function unbounded(accesses: Access[]): Access[] {
  return accesses.filter((a) => {
    if (!HISTORY_TABLES.has(a.table)) return false;
    if (a.how === 'scan') return true;
    if (a.table === 'film_progress') return false;
    // A run's answers sorted to find its latest: a sort that grows with the run's answers.
    if (a.table === 'question_records' && a.sorted) return true;
    if (/\b(id|run_id|film_id)\b\s*(=|IN\b)/i.test(a.key)) return false;
    return !(a.table === 'runs' && a.limited && !a.sorted);
  });
}

const readsHistory = (s: SentStatement) => /"(runs|question_records|takes|film_progress)"/.test(s.sql);

describeEngines("a learner's history at many runs", (engine) => {
  let server: TestServer;
  let heavy: { c: Client; id: string; token: string };
  let light: { c: Client; id: string; token: string };
  let history: SeededRun[];
  let pgClient: pg.Client | null = null;

  async function learner(account: string) {
    const user = await addUser(server.app.db, account, 'history-pass');
    const c = client(server.url);
    const { token } = await c.login(account, 'history-pass');
    return { c, id: user.id, token };
  }

  /** Ages every session of a learner past its expiry. */
  const endSessions = (userId: string) =>
    server.app.db
      .updateTable('sessions')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('user_id', '=', userId)
      .execute();

  /** How many runs, answer records and film_progress rows a learner has. */
  async function written(userId: string) {
    const [runs, records, progress] = await Promise.all(
      (['runs', 'question_records', 'film_progress'] as const).map((table) =>
        server.app.db.selectFrom(table).select('user_id').where('user_id', '=', userId).execute(),
      ),
    );
    return { runs: runs.length, records: records.length, progress: progress.length };
  }

  /** A client sending a token nobody holds. */
  function stranger(): Client {
    const c = client(server.url);
    c.setToken('a-token-nobody-holds');
    return c;
  }

  beforeAll(async () => {
    server = await startTestServer({ engine });
    for (const f of FILMS) await importFixtureFilm(server, f);
    heavy = await learner('heavy');
    light = await learner('light');
    history = await seedHistory(server.app.db, {
      userId: heavy.id,
      part: 'prpt',
      films: FILM_LINES,
      runs: MANY,
    });
    await seedHistory(server.app.db, { userId: heavy.id, part: 'prpo', films: FILM_LINES, runs: MANY / 4 });
    await seedHistory(server.app.db, { userId: light.id, part: 'prpt', films: FILM_LINES, runs: 2 });
    await seedHistory(server.app.db, { userId: light.id, part: 'prpo', films: FILM_LINES, runs: 2 });
    // Other learners, so the learner's own rows are a part of each table, as in a deployment.
    for (let k = 0; k < 3; k++) {
      const other = await addUser(server.app.db, `other${k}`, 'history-pass');
      await seedHistory(server.app.db, { userId: other.id, part: 'prpt', films: FILM_LINES, runs: 300 });
    }
    if (engine === 'postgres') {
      pgClient = new pg.Client({
        connectionString: testDatabaseUrl(),
        options: `-c search_path=${server.config.databaseSchema}`,
      });
      await pgClient.connect();
      await pgClient.query('ANALYZE');
      await pgClient.query('SET enable_seqscan = off');
    }
  }, 120_000);
  afterAll(async () => {
    await pgClient?.end();
    await server?.close();
  });

  const calls = (c: Client, filmId: string) => ({
    'film list': () => c.get(`${P2}/show_film_picture`, { _v: '1' }),
    'film list, part one': () => c.postForm(`${P1}/show_film_picture`, { _v: '1', page: '1' }),
    'film detail': () => c.postJson(`${P2}/get_film_info`, { id: filmId }),
    'run history': () => c.get(`${P2}/get_run_history`, { limit: '100' }),
    'run history of one film': () => c.get(`${P2}/get_run_history`, { filmId, limit: '20' }),
    'run state': () => c.get(`${P2}/get_run`, { filmId }),
    report: () => c.get(`${P2}/get_info_by_id`),
  });

  /**
   * The statements one call sends, after a first call filled the catalogue cache (the statements
   * counted are those of every request) and with the report's dubbed-video render (a background job)
   * done before and after counting.
   */
  const counted = async (fn: () => Promise<unknown>) => {
    await fn();
    await server.app.renders.idle();
    const sent = await statementsOf(fn);
    await server.app.renders.idle();
    return sent;
  };

  /** A statement's plan on this engine. */
  const planOf = async (s: SentStatement) =>
    engine === 'sqlite' ? sqlitePlan(server, s) : await postgresPlan(pgClient!, s);

  it('the list, the detail, the history and the report read the right runs out of thousands', async () => {
    const film = 'test-film';
    const ofFilm = history.filter((r) => r.film_id === film);
    const latest = ofFilm[ofFilm.length - 1];
    const best = Math.max(...ofFilm.map((r) => Math.round((r.score / r.maxScore) * 100)));
    const expected = {
      answered: true,
      bestScore: best,
      dubbedLines: 1,
      lastActivityAt: latest.updated_at,
      runId: latest.id,
      runs: ofFilm.length,
      totalLines: 3,
    };
    const list = await heavy.c.get(`${P2}/show_film_picture`, { _v: '1' });
    expect(list.body.code).toBe(200);
    const row = list.body.data.list.find((f: { id: string }) => f.id === film);
    expect(row.progress).toEqual(expected);
    const detail = await heavy.c.postJson(`${P2}/get_film_info`, { id: film });
    expect(detail.body.data.progress).toEqual(expected);

    const one = await heavy.c.get(`${P2}/get_run_history`, { filmId: film, limit: '5' });
    const newest = [...ofFilm].sort((a, b) => b.updated_at.localeCompare(a.updated_at)).slice(0, 5);
    expect(one.body.data.runs.map((r: { runId: string }) => r.runId)).toEqual(newest.map((r) => r.id));
    expect(one.body.data.runs[0]).toMatchObject({
      answered: true,
      answerPercent: Math.round((latest.score / latest.maxScore) * 100),
      dubbedLines: 1,
      dubbingAverage: latest.dubbing,
    });
    const all = await heavy.c.get(`${P2}/get_run_history`, { limit: '100' });
    expect(all.body.data.runs).toHaveLength(100);
    expect(all.body.data.runs.map((r: { runId: string }) => r.runId)).toEqual(
      history
        .slice(-100)
        .reverse()
        .map((r) => r.id),
    );

    // The report of the part's most recently active run, with the last 20 runs on its curve.
    const report = await heavy.c.get(`${P2}/get_info_by_id`);
    const last = history[history.length - 1];
    expect(report.body.data.runId).toBe(last.id);
    expect(report.body.data.dubbing.average).toBe(last.dubbing);
    expect(report.body.data.progress.map((r: { runId: string }) => r.runId)).toEqual(
      history.slice(-20).map((r) => r.id),
    );
  });

  it('every statement those calls send finds its rows by index, bounded by the page, as few at 2 000 runs as at 2', async () => {
    const film = 'test-film';
    const heavyCalls = calls(heavy.c, film);
    const lightCalls = calls(light.c, film);
    for (const [name, call] of Object.entries(heavyCalls)) {
      const sent = await counted(call);
      const fewRuns = await counted(lightCalls[name as keyof typeof lightCalls]);
      // The catalogue cache (5 s) may expire between two calls: compare the history's statements.
      const touching = sent.filter(readsHistory);
      expect(touching.length, `${name} reads the learner's history`).toBeGreaterThan(0);
      expect(touching.length, `${name}: statements at ${MANY} runs and at 2`).toBe(
        fewRuns.filter(readsHistory).length,
      );
      for (const s of touching) {
        const plan = await planOf(s);
        expect(plan.length, `${name}: a plan for ${s.sql}`).toBeGreaterThan(0);
        expect(unbounded(plan), `${name}: ${s.sql}\n${JSON.stringify(plan, null, 1)}`).toEqual([]);
      }
    }
  });

  it("a run's latest answer is read from its index alone, and on SQLite the film list's latest runs too", async () => {
    // Every run of the history and the report and every film of the list looks up its latest answer:
    // the index holds the two numbers it needs (server/db/migrations/018-latest-answer-cover.ts), so
    // no answer row is read. On SQLite the film list reads each latest run by its rowid, found in
    // runs_user_film_idx (server/takes/runs.ts, progressRowsQuerySqlite). PostgreSQL chooses an
    // Index Only Scan by its visibility map, which a freshly written table has not got yet: vacuumed
    // first, so what is asked is whether the index can answer alone.
    if (pgClient) await pgClient.query('VACUUM ANALYZE question_records');
    const film = 'test-film';
    for (const [name, call] of Object.entries(calls(heavy.c, film))) {
      // The statements that look up latest answers (the run state also reads its latest record whole).
      const sent = (await counted(call)).filter((s) => s.sql.includes('"latest_ratio"'));
      expect(sent.length, `${name} looks up latest answers`).toBeGreaterThan(0);
      const accesses: Access[] = [];
      for (const s of sent) accesses.push(...(await planOf(s)));
      const answers = accesses.filter((a) => a.table === 'question_records');
      expect(answers.length, `${name} looks up latest answers`).toBeGreaterThan(0);
      expect(
        answers.filter((a) => !a.covering),
        `${name}: ${JSON.stringify(answers)}`,
      ).toEqual([]);
      if (engine === 'sqlite' && name.startsWith('film list')) {
        const runs = accesses.filter((a) => a.table === 'runs');
        expect(runs.length, `${name} reads latest runs`).toBeGreaterThan(0);
        expect(
          runs.filter((a) => !a.covering && a.key !== 'rowid=?'),
          `${name}: ${JSON.stringify(runs)}`,
        ).toEqual([]);
      }
    }
  });

  it("the film list checks the session in the statement that reads the page's history", async () => {
    const list = (c: Client) => c.get(`${P2}/show_film_picture`, { _v: '1' });
    await list(light.c); // fills the catalogue cache
    const sent = await statementsOf(() => list(light.c));
    const session = sent.filter((s) => /"sessions"/.test(s.sql));
    expect(session, sent.map((s) => s.sql).join('\n')).toHaveLength(1);
    expect(session[0].sql).toMatch(/"film_progress"/);
    expect(sent.filter(readsHistory), sent.map((s) => s.sql).join('\n')).toEqual(session);

    // A learner with runs whose session has expired, and a token nobody holds: 1002, as before.
    const expiring = await learner('expiring');
    await seedHistory(server.app.db, { userId: expiring.id, part: 'prpt', films: FILM_LINES, runs: 2 });
    const before = await list(expiring.c);
    expect(before.body.data.list.map((f: { progress: { runs: number } }) => f.progress.runs)).toEqual([1, 1]);
    await endSessions(expiring.id);
    expect((await list(expiring.c)).body).toMatchObject({ code: 1002, data: null });
    expect((await list(stranger())).body).toMatchObject({ code: 1002, data: null });
  });

  it('film lists of one page asked for together: on PostgreSQL one statement reads them all, each learner its own', async () => {
    const deps = { db: server.app.db, storage: server.app.storage };
    const ended = await learner('ended-together');
    await seedHistory(server.app.db, { userId: ended.id, part: 'prpt', films: FILM_LINES, runs: 1 });
    await endSessions(ended.id);
    const tokens = [heavy.token, light.token, ended.token, 'a-token-nobody-holds', heavy.token];
    const list = (t: string) => listFilms(deps, t, 'prpt', 1, 20);
    // Each alone first: what each must answer, and the catalogue page cached.
    const alone = [];
    for (const t of tokens) alone.push(await list(t));
    expect(alone.map((a) => a?.user.id ?? null)).toEqual([heavy.id, light.id, null, null, heavy.id]);
    expect(alone[0]!.list.list.map((f) => f.progress.runs)).toEqual([MANY / 2, MANY / 2]);
    expect(alone[1]!.list.list.map((f) => f.progress.runs)).toEqual([1, 1]);

    let together: Awaited<ReturnType<typeof list>>[] = [];
    const sent = await statementsOf(async () => {
      together = await Promise.all(tokens.map(list));
    });
    expect(together).toEqual(alone);
    const session = sent.filter((s) => /"sessions"/.test(s.sql));
    expect(session, sent.map((s) => s.sql).join('\n')).toHaveLength(
      engine === 'postgres' ? 1 : tokens.length,
    );
    // The sessions and the page's latest runs, with their dubbing figures, in one statement.
    if (engine === 'postgres')
      expect(sent.filter(readsHistory).length, sent.map((s) => s.sql).join('\n')).toBe(1);
  });

  it('saving answers checks the session in the save: on PostgreSQL in the statement that stores them, one round trip', async () => {
    const saver = await learner('saver');
    const film = 'film-b';
    const save = (c: Client) =>
      c.postJson(`${P2}/save_question_record`, { filmId: film, answers: ALL_RIGHT });
    await save(saver.c); // fills the catalogue cache
    const sent = await statementsOf(async () => expect((await save(saver.c)).body.code).toBe(200));
    const session = sent.filter((s) => /"sessions"/.test(s.sql));
    expect(session, sent.map((s) => s.sql).join('\n')).toHaveLength(1);
    if (engine === 'postgres') {
      expect(session[0].sql).toMatch(/"question_records"/);
      expect(sent.filter(readsHistory), sent.map((s) => s.sql).join('\n')).toEqual(session);
    } else expect(session[0].sql).not.toMatch(/"question_records"/);
    expect(await written(saver.id)).toEqual({ runs: 2, records: 2, progress: 1 });

    // An ended session and a token nobody holds: 1002, and nothing written.
    await endSessions(saver.id);
    expect((await save(saver.c)).body).toMatchObject({ code: 1002, data: null });
    expect((await save(stranger())).body).toMatchObject({ code: 1002, data: null });
    expect(await written(saver.id)).toEqual({ runs: 2, records: 2, progress: 1 });
  });

  it('answers saved at once are stored as one after another: on PostgreSQL by one statement', async () => {
    const film = 'film-b';
    const db = server.app.db;
    const [dubbed, solo, ended] = [
      await learner('dubbed'),
      await learner('solo'),
      await learner('ended-saver'),
    ];
    await endSessions(ended.id);
    // The learner dubbed first: an open run, counted in film_progress, for the first answers to join.
    const open = await runForTake(db, dubbed.id, film, undefined);
    const save = (token: string, answers: typeof ALL_RIGHT) =>
      saveQuestionRecord(db, token, 'prpt', { filmId: film, answers });
    // A learner of this test's own fills the catalogue cache, so the saves below ask together; the
    // shared learners' rows stay as the other tests seeded them.
    await save((await learner('warms-saves')).token, ALL_RIGHT);
    const saves: [string, typeof ALL_RIGHT][] = [
      [dubbed.token, HALF_RIGHT],
      [dubbed.token, ALL_RIGHT],
      [solo.token, HALF_RIGHT],
      [dubbed.token, HALF_RIGHT],
      [ended.token, ALL_RIGHT],
      ['a-token-nobody-holds', ALL_RIGHT],
    ];
    let saved: Awaited<ReturnType<typeof save>>[] = [];
    const sent = await statementsOf(async () => {
      saved = await Promise.all(saves.map(([token, answers]) => save(token, answers)));
    });
    const inserts = sent.filter((s) => /insert into "question_records"/.test(s.sql));
    expect(inserts, sent.map((s) => s.sql).join('\n')).toHaveLength(engine === 'postgres' ? 1 : 4);

    expect(saved.map((s) => s?.user.id ?? null)).toEqual([
      dubbed.id,
      dubbed.id,
      solo.id,
      dubbed.id,
      null,
      null,
    ]);
    expect(saved.map((s) => s?.saved.percent ?? null)).toEqual([33, 100, 33, 33, null, null]);
    // The first answers joined the open run; each later one started a run of its own.
    const runIds = saved.map((s) => s?.saved.runId);
    expect(runIds[0]).toBe(open.id);
    expect(new Set([runIds[0], runIds[1], runIds[3]]).size).toBe(3);
    const rows = async (userId: string) => ({
      runs: (await db.selectFrom('runs').select('id').where('user_id', '=', userId).execute())
        .map((r) => r.id)
        .sort(),
      records: (
        await db
          .selectFrom('question_records')
          .select(['id', 'run_id'])
          .where('user_id', '=', userId)
          .execute()
      )
        .map((r) => `${r.id}:${r.run_id}`)
        .sort(),
      progress: await db
        .selectFrom('film_progress')
        .select(['film_id', 'runs', 'best_ratio'])
        .where('user_id', '=', userId)
        .execute(),
    });
    const mine = (indexes: number[]) =>
      indexes.map((i) => `${saved[i]!.saved.recordId}:${saved[i]!.saved.runId}`).sort();
    expect(await rows(dubbed.id)).toEqual({
      runs: [runIds[0], runIds[1], runIds[3]].sort(),
      records: mine([0, 1, 3]),
      progress: [{ film_id: film, runs: 3, best_ratio: 1 }],
    });
    expect(await rows(solo.id)).toEqual({
      runs: [runIds[2]],
      records: mine([2]),
      progress: [{ film_id: film, runs: 1, best_ratio: 1 / 3 }],
    });
    expect(await rows(ended.id)).toEqual({ runs: [], records: [], progress: [] });
  });

  it('a save the database refuses fails alone: the others asked for with it are stored, the refused one writes nothing', async () => {
    const film = 'film-b';
    const db = server.app.db;
    const [first, refused, last] = [
      await learner('batch-first'),
      await learner('batch-refused'),
      await learner('batch-last'),
    ];
    // The database itself refuses every answer of one learner, as it would a row it cannot store.
    const refuse =
      engine === 'postgres'
        ? [
            sql`create function refuse_answers() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`,
            sql`create trigger refuse_answers before insert on question_records for each row when (new.user_id = ${sql.lit(refused.id)}) execute function refuse_answers()`,
          ]
        : [
            sql`create trigger refuse_answers before insert on question_records when new.user_id = ${sql.lit(refused.id)} begin select raise(abort, 'refused'); end`,
          ];
    const allow =
      engine === 'postgres'
        ? [sql`drop trigger refuse_answers on question_records`, sql`drop function refuse_answers()`]
        : [sql`drop trigger refuse_answers`];
    const save = (token: string) =>
      saveQuestionRecord(db, token, 'prpt', { filmId: film, answers: ALL_RIGHT });
    await save((await learner('warms-refused')).token); // fills the catalogue cache, as above
    for (const statement of refuse) await statement.execute(db);
    let saved: PromiseSettledResult<Awaited<ReturnType<typeof save>>>[] = [];
    try {
      const sent = await statementsOf(async () => {
        saved = await Promise.allSettled([first.token, refused.token, last.token].map(save));
      });
      // On PostgreSQL the batch's statement failed and each save was then stored alone.
      const inserts = sent.filter((s) => /insert into "question_records"/.test(s.sql));
      expect(inserts).toHaveLength(engine === 'postgres' ? 4 : 3);
    } finally {
      for (const statement of allow) await statement.execute(db);
    }
    expect(saved.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    for (const ok of [first, last]) {
      expect(await written(ok.id)).toEqual({ runs: 1, records: 1, progress: 1 });
      expect(
        await db
          .selectFrom('film_progress')
          .select(['film_id', 'runs', 'best_ratio'])
          .where('user_id', '=', ok.id)
          .execute(),
      ).toEqual([{ film_id: film, runs: 1, best_ratio: 1 }]);
    }
    expect(await written(refused.id)).toEqual({ runs: 0, records: 0, progress: 0 });
  });

  it('the old film list query is what the check catches: a subquery per run over all answers in the part', async () => {
    // The shape the film list sent before film_progress: each run's best answer from every answer
    // of the learner in the part, found by (user, part) and filtered by film.
    const old: SentStatement = {
      sql:
        'select "r".*, (select max("q"."score") from "question_records" as "q" where "q"."user_id" = "r"."user_id"' +
        ' and "q"."part" = "r"."part" and "q"."film_id" = "r"."film_id") as "best"' +
        ` from "runs" as "r" where "r"."user_id" = ${engine === 'sqlite' ? '?' : '$1'} and "r"."part" = ${engine === 'sqlite' ? '?' : '$2'}`,
      params: [heavy.id, 'prpt'],
    };
    const plan = await planOf(old);
    expect(unbounded(plan).map((a) => a.table)).toContain('question_records');
  });

  it('answers and takes keep the counts: dubbing first, a better score, a concurrent first take counted once', async () => {
    const fresh = await learner('fresh');
    const film = 'film-b';
    const progress = async () => {
      const list = await fresh.c.get(`${P2}/show_film_picture`, { _v: '1' });
      return list.body.data.list.find((f: { id: string }) => f.id === film).progress;
    };
    expect(await progress()).toMatchObject({ runs: 0, bestScore: null, runId: null, answered: false });
    // Two first takes at once agree on one run, counted once.
    const [a, b] = await Promise.all([
      runForTake(server.app.db, fresh.id, film, undefined),
      runForTake(server.app.db, fresh.id, film, undefined),
    ]);
    expect(a.id).toBe(b.id);
    expect(await progress()).toMatchObject({ runs: 1, bestScore: null, runId: a.id, answered: false });
    // Answers after dubbing join that run.
    const half = await fresh.c.postJson(`${P2}/save_question_record`, { filmId: film, answers: HALF_RIGHT });
    expect(half.body.data.runId).toBe(a.id);
    expect(await progress()).toMatchObject({ runs: 1, bestScore: 33, runId: a.id, answered: true });
    const right = await fresh.c.postJson(`${P2}/save_question_record`, { filmId: film, answers: ALL_RIGHT });
    expect(right.body.data.runId).not.toBe(a.id);
    expect(await progress()).toMatchObject({ runs: 2, bestScore: 100, runId: right.body.data.runId });
    const again = await fresh.c.postJson(`${P2}/save_question_record`, { filmId: film, answers: HALF_RIGHT });
    expect(await progress()).toMatchObject({ runs: 3, bestScore: 100, runId: again.body.data.runId });
    // The other part and the other film are untouched.
    const other = await fresh.c.postForm(`${P1}/show_film_picture`, { _v: '1', page: '1' });
    for (const f of other.body.data.list) expect(f.progress.runs).toBe(0);
  });

  it("a run's dubbing figures follow its takes: stored one by one, two at once, and removed by the start-up cleaning", async () => {
    const dubber = await learner('dubber');
    const film = 'test-film';
    const run = await runForTake(server.app.db, dubber.id, film, undefined);
    // Older than every seeded history (2025 on), so the cleaning below can be limited to these takes.
    const store = (line: number, attempt: 1 | 2, overall: number, second: number) => {
      const rowId = `${dubber.id}-${line}-${attempt}`;
      const subtitleId = `${film}-${line}`;
      const createdAt = `2020-03-01T00:00:0${second}.000Z`;
      return storeTake(server.app.db, server.app.storage, {
        rowId,
        userId: dubber.id,
        filmId: film,
        runId: run.id,
        subtitleId,
        attempt,
        audio: Buffer.from(`take ${rowId}`),
        features: null,
        score: speechScore.parse(
          seededScore(rowId, {
            userId: dubber.id,
            filmId: film,
            subtitleId,
            attempt,
            overall,
            detected: 'happiness',
            createdAt,
          }),
        ),
      });
    };
    const figures = async () => {
      const res = await dubber.c.get(`${P2}/get_run_history`, { limit: '20' });
      const [only] = res.body.data.runs;
      return { runId: only.runId, dubbedLines: only.dubbedLines, dubbingAverage: only.dubbingAverage };
    };
    expect(await figures()).toEqual({ runId: run.id, dubbedLines: 0, dubbingAverage: null });
    await store(1, 1, 40, 1);
    expect(await figures()).toMatchObject({ dubbedLines: 1, dubbingAverage: 40 });
    // A line's latest take counts.
    await store(1, 2, 50, 2);
    expect(await figures()).toMatchObject({ dubbedLines: 1, dubbingAverage: 50 });
    // Two lines stored at once both count: (50 + 80 + 90) / 3.
    await Promise.all([store(2, 1, 80, 3), store(3, 1, 90, 4)]);
    expect(await figures()).toMatchObject({ dubbedLines: 3, dubbingAverage: 73.3 });
    // A take whose audio is gone is removed at start-up, and the run's figures with it.
    await server.app.storage.delete(takeAudioKey(dubber.id, run.id, `${dubber.id}-3-1`));
    const cleaned = await cleanOrphanTakes(
      server.app.db,
      server.app.storage,
      0,
      Date.parse('2020-06-01T00:00:00.000Z'),
    );
    expect(cleaned.rows).toBe(1);
    expect(await figures()).toMatchObject({ dubbedLines: 2, dubbingAverage: 65 });
  });
});
