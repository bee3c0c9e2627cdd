import fsp from 'node:fs/promises';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { scheduleLeftoverSweeps, sweepLeftovers } from '../../server/takes/leftovers';
import { describeEngines } from '../server/support/engines';
import { addUser, importFixtureFilm, insertTake } from '../server/support/seed';
import { startTestServer, type TestServer } from '../support/server';

/**
 * What a kill -9 leaves behind and no row owns (take audio whose row was never written, the
 * temporary file of a write cut short) is removed once it is older than LEFTOVERS_GRACE_MS, also
 * when the crash came just before the restart; what a row owns, and anything younger, stays.
 */
const GRACE_MS = 2000;
const HOUR = 3_600_000;

describeEngines('leftovers after a crash are swept', (engine) => {
  let server: TestServer;
  let userId: string;
  let ownedKey: string;
  beforeAll(async () => {
    server = await startTestServer({ engine, env: { LEFTOVERS_GRACE_MS: String(GRACE_MS) } });
    await importFixtureFilm(server);
    userId = (await addUser(server.app.db, 'crashed', 'crashed-pass')).id;
    const line = await server.app.db
      .selectFrom('subtitles')
      .select('id')
      .where('film_id', '=', 'test-film')
      .executeTakeFirstOrThrow();
    const takeId = await insertTake(server.app.db, {
      userId,
      filmId: 'test-film',
      subtitleId: line.id,
      attempt: 1,
      overall: 60,
      detected: 'neutral',
      createdAt: new Date(Date.now() - 2 * HOUR).toISOString(),
    });
    ownedKey = `takes/${userId}/${takeId}.wav`;
  });
  afterAll(() => server?.close());

  const storage = () => server.app.storage;
  const local = (key: string) => storage().localPath(key) as string;
  /** A file in the store, last modified `ageMs` ago. */
  async function leave(key: string, ageMs: number) {
    const file = local(key);
    await fsp.mkdir(file.slice(0, file.lastIndexOf('/')), { recursive: true });
    await fsp.writeFile(file, Buffer.alloc(1024, 1));
    const t = new Date(Date.now() - ageMs);
    await fsp.utimes(file, t, t);
  }
  const exists = (key: string) =>
    fsp.stat(local(key)).then(
      () => true,
      () => false,
    );

  it('removes old take audio without a row and old temporary files; keeps owned and young files', async () => {
    const orphan = `takes/${userId}/take-never-acknowledged.wav`;
    const staleTmp = `takes/${userId}/take-x.melody.wav.0b7c9a52-6a3e-4d7e-9a57-0d6b7e1f2a11.tmp`;
    const youngTmp = `takes/${userId}/take-y.wav.5d1e7c1a-2b4f-4f7a-8e3c-6a9d0b2c4e55.tmp`;
    const youngOrphan = `takes/${userId}/take-being-written.wav`;
    await leave(ownedKey, HOUR);
    await leave(orphan, HOUR);
    await leave(staleTmp, HOUR);
    await leave(youngTmp, 0);
    await leave(youngOrphan, 0);

    const swept = await sweepLeftovers(server.app.db, storage(), 10 * 60_000);
    expect(swept).toMatchObject({ files: 1, temporary: 1 });
    expect(await exists(orphan)).toBe(false);
    expect(await exists(staleTmp)).toBe(false);
    expect(await exists(ownedKey)).toBe(true);
    expect(await exists(youngTmp)).toBe(true);
    expect(await exists(youngOrphan)).toBe(true);
    await storage().delete(youngOrphan);
    await fsp.rm(local(youngTmp), { force: true });
  });

  it('leftovers of a crash just before the start are removed once the grace has passed', async () => {
    await leave(ownedKey, HOUR);
    const orphan = `takes/${userId}/take-cut-by-kill.wav`;
    const tmp = `takes/${userId}/take-cut.melody.wav.9f0e1d2c-3b4a-4c5d-8e6f-7a8b9c0d1e2f.tmp`;
    await leave(orphan, 0);
    await leave(tmp, 0);
    const timers = await scheduleLeftoverSweeps(server.app);
    try {
      // The sweep at start spares them: they are younger than the grace.
      expect(await exists(orphan)).toBe(true);
      expect(await exists(tmp)).toBe(true);
      // The sweep after the grace (LEFTOVERS_GRACE_MS + 1 s) removes them; the owned take stays.
      await vi.waitFor(
        async () => {
          expect(await exists(orphan)).toBe(false);
          expect(await exists(tmp)).toBe(false);
        },
        { timeout: GRACE_MS + 10_000, interval: 100 },
      );
      expect(await exists(ownedKey)).toBe(true);
    } finally {
      for (const t of timers) clearTimeout(t);
    }
  });
});
