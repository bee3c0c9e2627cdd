import { describe, expect, it } from 'vitest';
import {
  analyzeVoice,
  classifyEmotion,
  emotionModel,
  FEATURE_NAMES,
  type SpeakerStats,
  updateSpeakerStats,
  type VoiceAnalysis,
} from '../../../src/audio/analysis';
import { buildSpeechScore } from '../../../src/audio/scoring/score';
import { emodbFiles, emodbTake } from '../fixtures/emodb';

/** A fixture take scaled so its peak sits at `peakDbfs` (float samples: nothing clips). */
function atPeak(file: string, peakDbfs: number): { x: Float32Array; rate: number } {
  const { x, rate } = emodbTake(file);
  let peak = 0;
  for (const v of x) peak = Math.max(peak, Math.abs(v));
  const g = 10 ** (peakDbfs / 20) / peak;
  return { x: x.map((v) => v * g), rate };
}

function analysed(file: string, peakDbfs: number): VoiceAnalysis {
  const { x, rate } = atPeak(file, peakDbfs);
  return analyzeVoice(x, rate);
}

/** Same facts: equal strings and booleans, numbers within 0.01 (rounding of tiny level effects). */
function expectClose(a: unknown, b: unknown, where: string): void {
  if (typeof a === 'number' && typeof b === 'number') {
    expect(Math.abs(a - b), where).toBeLessThanOrEqual(0.01);
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    expect(Object.keys(a).sort(), where).toEqual(Object.keys(b).sort());
    for (const k of Object.keys(a))
      expectClose((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${where} ${k}`);
  } else {
    expect(a, where).toEqual(b);
  }
}

const files = emodbFiles();
/** Every feature a head of the shipped model reads (cold or speaker-normalised). */
const used = new Set([...emotionModel().cold.inputs, ...emotionModel().speaker.inputs]);

/**
 * The same take recorded 12 dB quieter or louder than a −14 dBFS reference (peaks at −26 and −2
 * dBFS): what the scoring reads must not move, or a quiet microphone would be heard as a calm voice.
 */
describe('recording level (EmoDB fixture takes at −26, −14 and −2 dBFS peak)', () => {
  const levels = [-26, -14, -2];
  const takes = files.map((f) => ({ file: f, at: levels.map((l) => analysed(f, l)) }));

  it('leaves every feature the emotion model reads unchanged', () => {
    expect(takes.length).toBeGreaterThanOrEqual(8);
    expect(used.size).toBeGreaterThan(50);
    for (const t of takes) {
      FEATURE_NAMES.forEach((name, i) => {
        if (!used.has(name)) return;
        const ref = t.at[1].features[i];
        for (const a of [t.at[0], t.at[2]]) {
          const tol = 0.02 * Math.abs(ref) + 1e-3;
          if (Math.abs(a.features[i] - ref) > tol)
            throw new Error(`${t.file} ${name}: ${a.features[i]} at another level vs ${ref}`);
        }
      });
    }
  });

  it('reads the same arousal (within 0.05), cold and with the speaker statistics', () => {
    let stats: SpeakerStats | null = null;
    for (const t of takes) stats = updateSpeakerStats(stats, t.at[1].features);
    for (const t of takes) {
      for (const s of [null, stats]) {
        const ref = classifyEmotion(t.at[1].features, s).arousal;
        for (const a of [t.at[0], t.at[2]])
          expect(Math.abs(classifyEmotion(a.features, s).arousal - ref), t.file).toBeLessThanOrEqual(0.05);
      }
    }
  });

  it('gives the same scores, emotion facts and advice, alone and against an actor', () => {
    const actor = analysed('15a01Wa.wav', -1);
    const actorEmotion = classifyEmotion(actor.features, null);
    for (const t of takes) {
      const scored = t.at.map((a) =>
        [
          { actor: null, actorEmotion: null, targetEmotion: 'anger' as const },
          { actor, actorEmotion, targetEmotion: null },
        ].map((ref) =>
          buildSpeechScore({
            takeId: 't',
            subtitlesId: 's',
            filmId: 'f',
            attempt: 1,
            audioUrl: '',
            createdAt: '2026-01-01T00:00:00Z',
            learner: a,
            learnerEmotion: classifyEmotion(a.features, null),
            ...ref,
          }),
        ),
      );
      for (const k of [0, 1]) {
        const ref = scored[1][k];
        for (const other of [scored[0][k], scored[2][k]]) {
          // The same statements with the same figures (their severities may differ in the last digit).
          const said = (r: typeof ref) => r.statements?.map(({ id, values }) => ({ id, values }));
          expect(said(ref)?.length, t.file).toBeGreaterThan(0);
          expect(said(other), t.file).toEqual(said(ref));
          expectClose(other.emotion, ref.emotion, t.file);
          expect(other.quality.tooQuiet).toBe(false);
          for (const s of ['emotion', 'intonation', 'energy', 'timing', 'quality'] as const)
            expect(Math.abs(other.scores[s] - ref.scores[s]), `${t.file} ${s}`).toBeLessThanOrEqual(1);
        }
      }
    }
  });
});
