import { afterAll, describe, expect, it } from 'vitest';
import { Code } from '../../src/api/contract';
import { BUSY_MESSAGE, ScoringPool } from '../../server/ai/pool';
import { AppError } from '../../server/lib/app-error';
import { fixtureWav } from './ai-support';

describe('ScoringPool', () => {
  const pool = new ScoringPool(1, 1);
  afterAll(() => pool.close());

  const job = () => ({
    wav: fixtureWav('15a01Wa.wav'),
    reference: null,
    targetEmotion: null,
    speakerStats: null,
    meta: { takeId: 'pool-test', subtitlesId: 's', filmId: 'f', attempt: 1, audioUrl: '', createdAt: '' },
  });

  it('scores in a worker thread and sheds what does not fit in its bounded queue with 503', async () => {
    // Ten submissions in one tick: one can run, one can wait, the rest are refused at once.
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => pool.run(job())));
    const done = results.filter((r) => r.status === 'fulfilled');
    const shed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(done.length).toBeLessThanOrEqual(2);
    expect(shed.length).toBe(10 - done.length);
    for (const r of shed) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect(r.reason).toMatchObject({ code: Code.BUSY, message: BUSY_MESSAGE, httpStatus: 503 });
    }
    for (const r of done) {
      if (r.status === 'fulfilled')
        expect(r.value.refused ? null : r.value.score.quality.speechDetected).toBe(true);
    }
    // Once the queue drains the pool takes work again.
    const again = await pool.run(job());
    expect(again.refused ? [] : again.features).not.toHaveLength(0);
  });
});
