import { describe, expect, it } from 'vitest';
import {
  analyzeVoice,
  classifyEmotion,
  type SpeakerStats,
  updateSpeakerStats,
} from '../../../src/audio/analysis';
import { shiftPitch } from '../../../scripts/eval/transfer/time-pitch';
import { emodbTake } from '../fixtures/emodb';

/** Real speech: the committed EmoDB takes of speaker 15 (tests/fixtures/emodb, demo content). */
function take(file: string) {
  const { x, rate } = emodbTake(file);
  return analyzeVoice(x, rate);
}

describe('real speech (EmoDB fixtures, speaker 15)', () => {
  const angry = ['15a01Wa.wav', '15a02Wb.wav', '15a04Wb.wav'].map(take);
  const bored = ['15a01La.wav', '15a02La.wav', '15a07Ld.wav'].map(take);
  let stats: SpeakerStats | null = null;
  for (const a of [...angry, ...bored, take('15a01Nb.wav'), take('15a07Fb.wav'), take('15a07Ac.wav')])
    stats = updateSpeakerStats(stats, a.features);

  it('finds speech, a male pitch range and plausible voice figures', () => {
    for (const a of [...angry, ...bored]) {
      expect(a.quality.speechDetected).toBe(true);
      expect(a.figures.pitchMedianHz).toBeGreaterThan(70);
      expect(a.figures.pitchMedianHz).toBeLessThan(350);
      expect(a.figures.syllablesPerSecond).toBeGreaterThan(1.5);
      expect(a.figures.syllablesPerSecond).toBeLessThan(9);
      expect(a.quality.snrDb).toBeGreaterThan(20);
    }
  });

  it('hears more arousal in anger than in boredom of the same speaker and sentence', () => {
    for (let i = 0; i < angry.length; i++) {
      const hot = classifyEmotion(angry[i].features, stats);
      const calm = classifyEmotion(bored[i].features, stats);
      expect(hot.arousal).toBeGreaterThan(calm.arousal);
    }
    // Cold start too: no speaker history at all.
    expect(classifyEmotion(angry[0].features).arousal).toBeGreaterThan(
      classifyEmotion(bored[0].features).arousal,
    );
  });

  it('keeps anger above boredom in arousal when the voice is 4 semitones higher (a first take)', () => {
    for (const [hot, calm] of [
      ['15a01Wa.wav', '15a01La.wav'],
      ['15a02Wb.wav', '15a02La.wav'],
    ]) {
      const up = (file: string) => {
        const { x, rate } = emodbTake(file);
        return analyzeVoice(shiftPitch(x, rate, 4), rate);
      };
      expect(classifyEmotion(up(hot).features).arousal).toBeGreaterThan(
        classifyEmotion(up(calm).features).arousal,
      );
    }
  });

  // Levels are not compared: the fixture takes are level-normalised by the demo builder.
  it('pitches anger higher than boredom', () => {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(angry.map((a) => a.figures.pitchMedianHz!))).toBeGreaterThan(
      mean(bored.map((a) => a.figures.pitchMedianHz!)),
    );
  });
});
