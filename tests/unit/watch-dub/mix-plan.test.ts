import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_MARGIN_SECONDS } from '../../../src/audio/constants';
import { gainSteps, planMix } from '../../../src/app/features/watch-dub/mix-plan';
import type { MelodyVersion } from '../../../src/api/contract';
import { latestMelodiesFromScores, latestTakesFromScores } from '../../../src/app/stores/takes/latest-takes';
import { speechScore } from '../fixtures/speech-score';

const M = DEFAULT_WINDOW_MARGIN_SECONDS;

describe('watch my dub: the mix plan', () => {
  const lines = [
    { id: 'b', startSeconds: 4, endSeconds: 5.5, takeUrl: null },
    { id: 'a', startSeconds: 1, endSeconds: 2.5, takeUrl: 'blob:a' },
    { id: 'c', startSeconds: 7, endSeconds: 8, takeUrl: '/media/takes/c.wav' },
  ];

  it('places each take where the pipeline cut it (window start less the margin); undubbed lines keep the actor', () => {
    const plan = planMix(lines);
    expect(plan.takes).toEqual([
      { lineId: 'a', url: 'blob:a', clipStart: 1 - M },
      { lineId: 'c', url: '/media/takes/c.wav', clipStart: 7 - M },
    ]);
    expect(plan.actor).toEqual([{ lineId: 'b', from: 4 - M, to: 5.5 + M }]);
    expect(plan.dubbed.map((d) => d.lineId)).toEqual(['a', 'c']);
  });

  it("places a melody version at the line's start: it runs on the clock of the actor's cut line, which has no margin", () => {
    const plan = planMix([
      { id: 'a', startSeconds: 1, endSeconds: 2.5, takeUrl: '/media/takes/a.melody.wav', onActorClock: true },
      { id: 'c', startSeconds: 7, endSeconds: 8, takeUrl: '/media/takes/c.wav' },
    ]);
    expect(plan.takes).toEqual([
      { lineId: 'a', url: '/media/takes/a.melody.wav', clipStart: 1 },
      { lineId: 'c', url: '/media/takes/c.wav', clipStart: 7 - M },
    ]);
    // The original is silent over the whole window either way.
    expect(plan.dubbed).toEqual([
      { lineId: 'a', from: 1 - M, to: 2.5 + M },
      { lineId: 'c', from: 7 - M, to: 8 + M },
    ]);
  });

  it('gain steps: the inside value over the whole span, ramps only outside it, overlapping spans merged', () => {
    const steps = gainSteps(
      [
        { lineId: 'x', from: 1, to: 2 },
        { lineId: 'y', from: 1.9, to: 3 },
      ],
      0,
      1,
      0.005,
    );
    expect(steps).toEqual([
      { at: 0, value: 1, ramp: false },
      { at: 0.995, value: 1, ramp: false },
      { at: 1, value: 0, ramp: true },
      { at: 3, value: 0, ramp: false },
      { at: 3.005, value: 1, ramp: true },
    ]);
  });

  it('the latest take of a line is its second, else its first; a lost local take falls back to the server copy', () => {
    const json = (url: string) => JSON.stringify(speechScore({ overall: 50, audioUrl: url }));
    const takes = latestTakesFromScores({
      a: { subtitlesId: 'a', firstUserAudioJson: json('/media/a1.wav'), firstSource: 'blob:a1' },
      b: {
        subtitlesId: 'b',
        firstUserAudioJson: json('/media/b1.wav'),
        firstSource: 'blob:b1',
        secondUserAudioJson: json('/media/b2.wav'),
        secondSource: '',
        secondSourceLost: true,
      },
    });
    expect(takes).toEqual({ a: 'blob:a1', b: '/producer/media/b2.wav' });
  });

  it("a line's melody version is its latest take's; a line whose latest take has none is left out", () => {
    const json = (melody?: MelodyVersion) =>
      JSON.stringify(speechScore({ overall: 50, ...(melody ? { melody } : {}) }));
    const ready = (url: string): MelodyVersion => ({ status: 'ready', url });
    const melodies = latestMelodiesFromScores({
      a: {
        subtitlesId: 'a',
        firstUserAudioJson: json(ready('/media/a1.melody.wav')),
        firstSource: 'blob:a1',
      },
      b: {
        subtitlesId: 'b',
        firstUserAudioJson: json(ready('/media/b1.melody.wav')),
        firstSource: 'blob:b1',
        secondUserAudioJson: json({ status: 'unavailable', reason: 'take_too_little_voiced' }),
        secondSource: 'blob:b2',
      },
      c: { subtitlesId: 'c', firstUserAudioJson: json(), firstSource: 'blob:c1' },
    });
    expect(melodies).toEqual({ a: '/producer/media/a1.melody.wav' });
  });
});
