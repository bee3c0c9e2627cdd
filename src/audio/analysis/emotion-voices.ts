import type { SpeakerStats } from './types';

/**
 * Typical voices: what a first take is read against before anything is known of the learner's own
 * voice. Per language and pitch register, a pseudo-speaker whose neutral delivery is that of neutral
 * read speech in the language (speaker-balanced), and whose spread and emotional range are those of
 * EmoDB's speakers of the register; built by `npm run build:voices` (scripts/emotion/voices.ts) into
 * emotion-voices.json. docs/emotion.md, "The first take".
 */
export interface TypicalVoice {
  /** Per feature (order = FEATURE_NAMES): the pseudo-speaker's mean and variance. */
  mean: number[];
  variance: number[];
}

/** The pitch register: low (most adult men) or high (most women and children). */
export type Register = 'low' | 'high';

export interface TypicalVoicesFile {
  format: 'emotion-voices/1';
  featureNames: string[];
  /**
   * The register is read off the take itself: the weight of `high` is a logistic of `feature`
   * (semitones re 27.5 Hz) around `threshold` with scale `width`, so a voice between the registers
   * is read against a mix of both.
   */
  register: { feature: string; threshold: number; width: number };
  /** Pseudo-takes the typical voice weighs as (the speaker normalisation's count). */
  takes: number;
  /** Weight of the reading against the typical voice in a first take; the rest is the cold heads'. */
  weight: number;
  /**
   * BCP 47 primary language subtag → register → voice. `und` (pooled over the languages held) is
   * read when the language is unknown or not held.
   */
  voices: Record<string, Record<Register, TypicalVoice>>;
  provenance: Record<string, string>;
}

/** The language subtag a typical voice is kept for, or `und` (pooled) when it is unknown or not held. */
export function voiceLanguage(file: TypicalVoicesFile, language: string | null | undefined): string {
  const primary = (language ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return primary && primary !== 'und' && file.voices[primary] ? primary : 'und';
}

/** Weight of the high register for a take (0.5 when it has no voiced frames to tell). */
export function highRegisterWeight(file: TypicalVoicesFile, features: ArrayLike<number>): number {
  const i = file.featureNames.indexOf(file.register.feature);
  const v = i >= 0 ? features[i] : Number.NaN;
  if (!Number.isFinite(v)) return 0.5;
  return 1 / (1 + Math.exp(-(v - file.register.threshold) / file.register.width));
}

/**
 * The statistics a first take is read against: the typical voice of its language, mixed over the
 * registers by what `features` show (the take itself, or a learner's mean). Same shape as a
 * learner's running statistics.
 */
export function typicalVoiceStats(
  file: TypicalVoicesFile,
  features: ArrayLike<number>,
  language: string | null | undefined,
): SpeakerStats {
  const voices = file.voices[voiceLanguage(file, language)];
  const w = highRegisterWeight(file, features);
  const mix = (a: number[], b: number[]) => a.map((v, i) => (1 - w) * v + w * b[i]);
  const mean = mix(voices.low.mean, voices.high.mean);
  const variance = mix(voices.low.variance, voices.high.variance);
  return { count: file.takes, mean, m2: variance.map((v) => v * file.takes) };
}
