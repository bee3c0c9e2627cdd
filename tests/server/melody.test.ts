import { describe, expect, it } from 'vitest';
import { speechScore } from '../../src/api/contract';
import { analyzeVoice } from '../../src/audio/analysis';
import { decodeWav, toMono } from '../../src/audio/dsp/wav';
import { median } from '../../src/audio/scoring/contour';
import { createShareToken, shareSecret } from '../../server/reports/share-link';
import { cleanOrphanTakes } from '../../server/takes/retention';
import { fact, word } from '../../src/i18n';
import { fixtureWav, LINES, postTake, silentWav } from './ai-support';
import { describeEngines } from './support/engines';
import { aiFilmServer } from './support/seed';

const voicedMedianHz = (samples: Float32Array, rate: number): number =>
  median(Array.from(analyzeVoice(samples, rate).frames.f0Hz).filter((f) => f > 0));

describeEngines("a take with the actor's melody", (engine) => {
  // Two retakes kept besides the first and the latest, so the fifth take prunes one.
  const ai = aiFilmServer(engine, 'melody', {
    env: { TAKES_RETAKES_KEPT: '2', TAKES_ATTEMPTS_PER_LINE: '10' },
  });

  const takeRows = () =>
    ai.server.app.db
      .selectFrom('takes')
      .selectAll()
      .where('user_id', '=', ai.userId)
      .orderBy('created_at')
      .execute();

  it('is made with the score, lasts as long as the actor, keeps the learner register and is served by a signed link', async () => {
    const take = fixtureWav('15a01Wa.wav');
    const { status, body } = await postTake(ai.server.url, ai.token, {
      file: take,
      subtitlesId: LINES.neutral,
      takeId: 'melody-take-1',
    });
    expect(status).toBe(200);
    const score = speechScore.parse(body.data);
    expect(score.melody?.status).toBe('ready');
    if (score.melody?.status !== 'ready') return;
    expect(score.melody.url).toMatch(/\.melody\.wav\?exp=\d+&sig=[\w-]+$/);

    // Without a token: the signed link alone opens it, like the take's own audio.
    const res = await fetch(`${ai.server.url}/producer${score.melody.url}`);
    expect(res.status).toBe(200);
    const out = decodeWav(new Uint8Array(await res.arrayBuffer()));
    const actor = decodeWav(fixtureWav('15a01Nb.wav'));
    expect(out.sampleRate).toBe(16_000);
    const outSamples = toMono(out);
    expect(outSamples.length / out.sampleRate).toBeCloseTo(toMono(actor).length / actor.sampleRate, 2);
    expect(outSamples.every((v) => Number.isFinite(v))).toBe(true);
    // Same speaker's register: within a semitone of the take's own median pitch.
    const takeWav = decodeWav(take);
    const shift =
      12 * Math.log2(voicedMedianHz(outSamples, 16_000) / voicedMedianHz(toMono(takeWav), 16_000));
    expect(Math.abs(shift)).toBeLessThan(1);

    // The overlay's third line is the made audio read back: it follows the actor's melody closer
    // than the take itself did, on the same plotted points.
    const { t, actorPitch, learnerPitch, melodyPitch } = score.contours;
    expect(melodyPitch).toHaveLength(t.length);
    const gaps = (line: ReadonlyArray<number | null>) =>
      line.flatMap((v, i) => (v !== null && actorPitch?.[i] != null ? [Math.abs(v - actorPitch[i])] : []));
    const melodyGaps = gaps(melodyPitch ?? []);
    expect(melodyGaps.length).toBeGreaterThan(t.length / 3);
    expect(median(melodyGaps)).toBeLessThan(median(gaps(learnerPitch)));
    expect(median(melodyGaps)).toBeLessThan(1);

    // Stored beside the take under the run's prefix; a plain path in the stored score.
    const [row] = await takeRows();
    const key = row.audio_key.replace(/\.wav$/, '.melody.wav');
    expect(await ai.server.app.storage.stat(key)).not.toBeNull();
    expect(speechScore.parse(JSON.parse(row.result)).melody).toEqual({
      status: 'ready',
      url: ai.server.app.storage.url(key),
    });
    // Refused to nobody and to an altered signature.
    expect((await fetch(`${ai.server.url}/producer${score.melody.url.split('?')[0]}`)).status).toBe(404);
    expect(
      // Its first character changed to another (to 'A' it would stay the same one time in 64).
      (
        await fetch(
          `${ai.server.url}/producer${score.melody.url.replace(/sig=(.)/, (_, c) => `sig=${c === 'A' ? 'B' : 'A'}`)}`,
        )
      ).status,
    ).toBeGreaterThanOrEqual(400);
  });

  it('says why when the take has too little voice, and is absent on a line without the actor', async () => {
    const silent = await postTake(ai.server.url, ai.token, {
      file: silentWav(2),
      subtitlesId: LINES.neutral,
      takeId: 'melody-silent',
    });
    expect(speechScore.parse(silent.body.data).melody).toEqual({
      status: 'unavailable',
      reason: 'take_too_little_voiced',
    });
    expect(speechScore.parse(silent.body.data).contours.melodyPitch).toBeUndefined();
    const noActor = await postTake(ai.server.url, ai.token, {
      file: fixtureWav('15a01Wa.wav'),
      subtitlesId: LINES.noReference,
      takeId: 'melody-no-actor',
    });
    expect(noActor.status).toBe(200);
    expect(speechScore.parse(noActor.body.data).melody).toBeUndefined();
  });

  it('the share page plays the most improved line three ways, the melody version by its signed link', async () => {
    let runId: string | undefined;
    for (const [i, file] of ['15a02La.wav', '15a02Wb.wav'].entries()) {
      const { body } = await postTake(ai.server.url, ai.token, {
        file: fixtureWav(file),
        subtitlesId: LINES.angry,
        takeId: `melody-share-${i}`,
        attempt: String(i + 1),
        ...(runId ? { runId } : {}),
      });
      expect(body).toMatchObject({ code: 200 });
      runId ??= (await takeRows())[0].run_id ?? undefined;
    }
    const rows = await takeRows();
    const [first, second] = rows.map((r) => speechScore.parse(JSON.parse(r.result)));
    // The line gained on its second take, so it is the page's most improved line.
    expect(second.overall).toBeGreaterThan(first.overall);
    const { token: share } = createShareToken(await shareSecret(ai.server.app.db), runId as string);
    for (const lang of ['zh', 'en'] as const) {
      const page = await (await fetch(`${ai.server.url}/producer/h5/report/${share}?lang=${lang}`)).text();
      const card = page.slice(page.indexOf(`data-best-line="${LINES.angry}"`)).replaceAll('&#39;', "'");
      expect(card).toContain(word(fact('melody.actor'), lang));
      expect(card).toContain(word(fact('melody.take'), lang));
      expect(card).toContain(word(fact('melody.yours'), lang));
      const srcs = Object.fromEntries(
        [...card.matchAll(/src="([^"]+)"[^>]*data-version="(\w+)"/g)].map((m) => [
          m[2],
          m[1].replaceAll('&amp;', '&'),
        ]),
      );
      expect(Object.keys(srcs).sort()).toEqual(['actor', 'melody', 'take']);
      expect(srcs.melody).toMatch(/\.melody\.wav\?exp=\d+&sig=/);
      // Each plays without a login: the actor's line, the take and its melody version by their links.
      for (const src of Object.values(srcs)) {
        const res = await fetch(`${ai.server.url}${src}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/audio/);
      }
    }
  });

  describe('storage', () => {
    it('goes with its take when a retake is pruned, and start-up cleaning keeps it while its take lives', async () => {
      const files = ['15a01Wa.wav', '15a01La.wav', '15a02Wb.wav', '15a02La.wav', '15a01Wa.wav'];
      let runId: string | undefined;
      for (const [i, file] of files.entries()) {
        const { body } = await postTake(ai.server.url, ai.token, {
          file: fixtureWav(file),
          subtitlesId: LINES.neutral,
          takeId: `melody-retake-${i}`,
          attempt: i === 0 ? '1' : '2',
          ...(runId ? { runId } : {}),
        });
        expect(body).toMatchObject({ code: 200 });
        runId ??= (await takeRows())[0].run_id ?? undefined;
      }
      const rows = await takeRows();
      expect(rows).toHaveLength(4);
      const kept = new Set(rows.map((r) => r.audio_key.replace(/\.wav$/, '.melody.wav')));
      const listed: string[] = [];
      for await (const { key } of ai.server.app.storage.list(`takes/${ai.userId}`)) {
        if (key.endsWith('.melody.wav')) listed.push(key);
      }
      expect(new Set(listed)).toEqual(kept);

      // A melody file whose take row never came is an orphan; those of stored takes are not.
      const orphan = `takes/${ai.userId}/${runId}/ffffffffffffffffffffffffffffffff.melody.wav`;
      await ai.server.app.storage.put(orphan, Buffer.from(silentWav(0.1)));
      await cleanOrphanTakes(ai.server.app.db, ai.server.app.storage, 0, Date.now() + 1000);
      expect(await ai.server.app.storage.stat(orphan)).toBeNull();
      for (const key of kept) expect(await ai.server.app.storage.stat(key)).not.toBeNull();
    });
  });
});
