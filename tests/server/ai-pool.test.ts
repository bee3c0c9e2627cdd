import { afterAll, describe, expect, it } from 'vitest';
import { Code } from '../../src/api/contract';
import { BUSY_MESSAGE, ScoringPool } from '../../server/ai/pool';
import { WORD_SAMPLE_RATE } from '../../server/ai/score-task';
import { wordSamplesChannel } from '../../server/ai/take-words';
import { AppError } from '../../server/lib/app-error';
import { resampleSinc } from '../../src/audio/analysis/resample-sinc';
import { decodeWav, encodeWav16, toMono } from '../../src/audio/dsp/wav';
import { fixtureWav, floatStereoFrom } from './ai-support';

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

  it("posts the take for the word check from the job's own decode, at 16 kHz", async () => {
    const wav = fixtureWav('15a01Wa.wav');
    const samples = toMono(decodeWav(wav));
    const forWords = wordSamplesChannel();
    const result = await pool.run({ ...job(), wav: wav.slice(), wordsPort: forWords.port });
    expect(result.refused).toBeUndefined();
    const audio = await forWords.samples;
    expect(audio?.sampleRate).toBe(WORD_SAMPLE_RATE);
    expect(audio?.samples).toEqual(samples);

    // A 44.1 kHz take comes as the same resampling the analysis makes of it.
    const at44k = resampleSinc(samples, 16_000, 44_100);
    const wav44k = new Uint8Array(encodeWav16(at44k, 44_100));
    const again = wordSamplesChannel();
    await pool.run({ ...job(), wav: wav44k.slice(), wordsPort: again.port });
    const resampled = await again.samples;
    expect(resampled?.sampleRate).toBe(WORD_SAMPLE_RATE);
    expect(resampled?.samples).toEqual(resampleSinc(toMono(decodeWav(wav44k)), 44_100, WORD_SAMPLE_RATE));
  });

  it('posts nothing for a refused take or a shed job, so the word check ends instead of waiting', async () => {
    const bad = floatStereoFrom(fixtureWav('15a01Wa.wav'));
    new DataView(bad.buffer).setFloat32(44 + 4000 * 8, Number.NaN, true);
    const refused = wordSamplesChannel();
    const result = await pool.run({ ...job(), wav: bad, wordsPort: refused.port });
    expect(result.refused?.reason).toBe('non_finite_samples');
    expect(await refused.samples).toBeNull();

    const channels = Array.from({ length: 6 }, () => wordSamplesChannel());
    const results = await Promise.allSettled(channels.map((c) => pool.run({ ...job(), wordsPort: c.port })));
    const shed = results.flatMap((r, i) => (r.status === 'rejected' ? [channels[i]] : []));
    const ran = results.flatMap((r, i) => (r.status === 'fulfilled' ? [channels[i]] : []));
    expect(shed.length).toBeGreaterThan(0);
    expect(ran.length).toBeGreaterThan(0);
    for (const c of shed) expect(await c.samples).toBeNull();
    for (const c of ran) expect((await c.samples)?.sampleRate).toBe(WORD_SAMPLE_RATE);
  });

  it("decodes a line's audio for the word check in a worker", async () => {
    const wav = fixtureWav('15a02Wd.wav');
    const audio = await pool.wordSamples({ wav: wav.slice() });
    expect(audio).toEqual({ samples: toMono(decodeWav(wav)), sampleRate: WORD_SAMPLE_RATE });
  });
});
