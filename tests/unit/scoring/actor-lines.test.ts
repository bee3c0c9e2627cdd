import { describe, expect, it } from 'vitest';
import {
  analyzeVoice,
  classifyEmotion,
  type SpeakerStats,
  updateSpeakerStats,
} from '../../../src/audio/analysis';
import { type ActorLine, readActorLines } from '../../../src/audio/scoring/pipeline';
import { emodbTake } from '../fixtures/emodb';

/** One EmoDB speaker (15): anger, boredom, neutral, happiness, sadness, fear; all one actor's lines. */
const FILES = ['15a01Wa.wav', '15a01La.wav', '15a01Nb.wav', '15a07Fb.wav', '15a07Ld.wav', '15a07Ac.wav'];
const features = new Map(
  FILES.map((f) => {
    const { x, rate } = emodbTake(f);
    return [f, analyzeVoice(x, rate).features] as const;
  }),
);
const line = (id: string, voice = 'film\u0000A', inVoice = true): ActorLine => ({
  id,
  features: features.get(id) as Float64Array,
  voice,
  inVoice,
});
const statsOf = (ids: string[]): SpeakerStats | null =>
  ids.reduce<SpeakerStats | null>((s, id) => updateSpeakerStats(s, features.get(id) as Float64Array), null);

describe('readActorLines: each actor line read against the other lines of its voice', () => {
  it("reads a line as the classifier does against the statistics of the voice's other lines", () => {
    const lines = FILES.map((f) => line(f));
    const read = readActorLines(lines);
    for (const f of FILES) {
      const others = [...FILES].sort().filter((o) => o !== f);
      expect(read.get(f)).toEqual(classifyEmotion(features.get(f) as Float64Array, statsOf(others)));
    }
    // Against the voice, not cold: the readings of the six lines differ from the cold ones.
    const cold = FILES.map((f) => classifyEmotion(features.get(f) as Float64Array, null).arousal);
    const warm = FILES.map((f) => read.get(f)?.arousal);
    expect(warm).not.toEqual(cold);
  });

  it('reads a line the same whatever order the lines come in (a take and a report agree)', () => {
    const forward = readActorLines(FILES.map((f) => line(f)));
    const backward = readActorLines([...FILES].reverse().map((f) => line(f)));
    for (const f of FILES) expect(backward.get(f)).toEqual(forward.get(f));
  });

  it("reads a line outside the voice's lines against all of them, and a lone voice cold", () => {
    const [outside, ...voice] = FILES;
    const read = readActorLines([line(outside, 'film\u0000A', false), ...voice.map((f) => line(f))]);
    expect(read.get(outside)).toEqual(
      classifyEmotion(features.get(outside) as Float64Array, statsOf([...voice].sort())),
    );
    const lone = readActorLines([line(outside, 'film\u0000B'), ...voice.map((f) => line(f))]);
    expect(lone.get(outside)).toEqual(classifyEmotion(features.get(outside) as Float64Array, null));
  });
});
