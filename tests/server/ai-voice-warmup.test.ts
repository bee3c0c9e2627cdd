import { expect, it } from 'vitest';
import { speechScore, voiceWarmupState } from '../../src/api/contract';
import { FEATURE_NAMES } from '../../src/audio/analysis';
import { fixtureWav, LINES, postTake, silentWav } from './ai-support';
import { describeEngines } from './support/engines';
import { aiFilmServer } from './support/seed';

describeEngines('voice warm-up (/ai/voice_warmup)', (engine) => {
  const ai = aiFilmServer(engine, 'warmup');

  const state = async () => {
    const res = await fetch(`${ai.server.url}/ai/voice_warmup`, { headers: { token: ai.token } });
    const body = (await res.json()) as { code: number; data: unknown };
    expect(body.code).toBe(200);
    return voiceWarmupState.parse(body.data);
  };
  const record = async (wav: Uint8Array) => {
    const data = new FormData();
    data.set('file', new Blob([wav], { type: 'audio/wav' }), 'warmup.wav');
    const res = await fetch(`${ai.server.url}/ai/voice_warmup`, {
      method: 'POST',
      headers: { token: ai.token },
      body: data,
    });
    const body = (await res.json()) as { code: number; data: unknown };
    expect(body.code).toBe(200);
    return voiceWarmupState.parse(body.data);
  };
  const stats = () =>
    ai.server.app.db
      .selectFrom('speaker_stats')
      .selectAll()
      .where('user_id', '=', ai.userId)
      .executeTakeFirst();

  it('a recorded warm-up seeds the statistics, so the first take is not read cold', async () => {
    expect((await state()).status).toBe('none');
    // A neutral EmoDB take stands for the learner's neutral line.
    expect(await record(fixtureWav('15a01Nb.wav'))).toEqual({ status: 'recorded', seeded: true });
    expect((await state()).status).toBe('recorded');
    const seeded = await stats();
    expect(seeded?.count).toBe(1);
    expect((JSON.parse(seeded?.stats ?? '{}') as { mean: number[] }).mean).toHaveLength(FEATURE_NAMES.length);

    const { body } = await postTake(ai.server.url, ai.token, { file: fixtureWav('15a01Wa.wav') });
    const score = speechScore.parse(body.data);
    expect(score.emotion.voiceTakes).toBe(1);
    // The warm-up is a baseline, never a scored take.
    const takes = await ai.server.app.db
      .selectFrom('takes')
      .select('id')
      .where('user_id', '=', ai.userId)
      .execute();
    expect(takes).toHaveLength(1);
    expect((await stats())?.count).toBe(2);
  });

  it('skipped, the step is not offered again and the first take says it was read cold', async () => {
    const res = await fetch(`${ai.server.url}/ai/voice_warmup_skip`, {
      method: 'POST',
      headers: { token: ai.token, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await res.json()) as { data: unknown }).data).toEqual({ status: 'skipped' });
    expect((await state()).status).toBe('skipped');
    expect(await stats()).toBeUndefined();
    const { body } = await postTake(ai.server.url, ai.token, { file: fixtureWav('15a01Wa.wav') });
    expect(speechScore.parse(body.data).emotion.voiceTakes).toBe(0);
  });

  it('a silent warm-up is refused and stores nothing', async () => {
    expect(await record(silentWav(2))).toEqual({ status: 'none', refused: 'no_speech' });
    expect(await stats()).toBeUndefined();
    expect((await state()).status).toBe('none');
  });

  it('a learner with takes is not offered it, and a late warm-up leaves their statistics alone', async () => {
    await postTake(ai.server.url, ai.token, { file: fixtureWav('15a01Wa.wav'), subtitlesId: LINES.angry });
    const before = await stats();
    expect((await state()).status).toBe('known');
    expect(await record(fixtureWav('15a01Nb.wav'))).toEqual({ status: 'recorded', seeded: false });
    expect(await stats()).toEqual(before);
  });
});
