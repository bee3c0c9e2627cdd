/**
 * Sub-scores (0–100) from measured differences (pure). Every threshold is a named number here so
 * the scoring can be read and tuned in one place; docs/api.md explains them in words.
 */
import type { Comparison } from './compare';
import { clamp01, ramp } from './ramp';
import type { ScoringVoice, VoiceQuality } from './types';

/**
 * Peak below this (dBFS) means the learner was far too far from the microphone or the gain far too
 * low. Every measure the scoring reads is relative to the take's own level and noise floor (the
 * analysis's segmentation and features; tests/unit/scoring/level-invariance.test.ts), so a quiet
 * but clean take is judged like a loud one; only near the 16-bit quantisation floor (about −96
 * dBFS, i.e. 50 dB under this peak) does the level itself cost detail. Background noise is
 * judged by the SNR (NOISY_SNR_DB).
 */
export const TOO_QUIET_PEAK_DBFS = -45;
/** More than this fraction of clipped samples is audible distortion. */
export const CLIPPED_FRACTION = 0.001;
/** Below this SNR (dB) the background noise gets in the way of the analysis. */
export const NOISY_SNR_DB = 15;

/**
 * Judging a voice with no actor to compare with. The analysis's ranges are 5th–95th percentiles over
 * speech frames; on the EmoDB fixtures a bored line spans about 24 dB and 12 st, an angry one 44 dB
 * and 14 st, so "flat" sits well below those.
 */
export const SOLO = {
  /** Pitch range (st) scored 0 at or below `pitchFlatSt`, full at `pitchFullSt`; tip below `pitchTipSt`. */
  pitchFlatSt: 4,
  pitchFullSt: 10,
  pitchTipSt: 8,
  /** Loudness range (dB) scored 0 at or below `loudFlatDb`, full at `loudFullDb`; tip below `loudTipDb`. */
  loudFlatDb: 15,
  loudFullDb: 35,
  loudTipDb: 25,
} as const;

/**
 * Weights of the overall score, by what each sub-score measures. `emotion` is the only one that
 * measures the emotion (scripts/eval/match.ts: the other three rank same-emotion pairs barely above
 * chance). `intonation`, `energy` and `timing` measure likeness to the actor's delivery: timing
 * most, since a dub must sit on the actor's lines; energy least, as a loudness contour depends on
 * the microphone and the recording's level. `quality` caps the rest (overallScore).
 */
export const WEIGHTS = { emotion: 0.4, intonation: 0.15, energy: 0.1, timing: 0.2, quality: 0.15 } as const;

export interface QualityFlags {
  speechDetected: boolean;
  tooQuiet: boolean;
  clipped: boolean;
  noisy: boolean;
}

export function qualityFlags(q: VoiceQuality): QualityFlags {
  return {
    speechDetected: q.speechDetected,
    tooQuiet: q.peakDbfs < TOO_QUIET_PEAK_DBFS,
    clipped: q.clippedFraction > CLIPPED_FRACTION,
    noisy: q.snrDb !== null && q.snrDb < NOISY_SNR_DB,
  };
}

export function qualityScore(q: VoiceQuality): number {
  if (!q.speechDetected) return 0;
  const loud = ramp(q.peakDbfs, TOO_QUIET_PEAK_DBFS, TOO_QUIET_PEAK_DBFS - 25);
  const clip = q.clippedFraction <= CLIPPED_FRACTION ? 1 : ramp(Math.log10(q.clippedFraction), -3, -1);
  const snr = q.snrDb === null ? 1 : ramp(q.snrDb, 25, 0);
  return 100 * Math.min(1, 0.15 + 0.85 * loud) * Math.min(1, 0.3 + 0.7 * clip) * snr;
}

/** Partial scores in 0–1 that make up each sub-score; kept so tips can name the weakest part. */
export interface Parts {
  intonation: { distance: number; shape: number; range: number };
  energy: { distance: number; shape: number; range: number };
  timing: { onset: number; duration: number; pauses: number };
}

export function compareParts(c: Comparison): Parts {
  const { intonation: i, energy: e, timing: t } = c;
  const rangeRatio =
    i.learnerRangeSt !== null && i.actorRangeSt !== null
      ? Math.abs(Math.log2(Math.max(0.25, i.learnerRangeSt) / Math.max(0.25, i.actorRangeSt)))
      : Number.NaN;
  return {
    intonation: {
      distance: i.voicedPairs >= 5 ? ramp(i.distanceSt, 1.5, 6) : 0,
      shape: i.correlation === null ? 0.5 : clamp01((i.correlation + 0.2) / 1.0),
      range: Number.isFinite(rangeRatio) ? ramp(rangeRatio, 0.25, 1.5) : 0.5,
    },
    energy: {
      distance: ramp(e.distanceDb, 3, 12),
      shape: e.correlation === null ? 0.5 : clamp01((e.correlation + 0.2) / 1.0),
      range: ramp(Math.abs(e.learnerRangeDb - e.actorRangeDb), 2, 12),
    },
    timing: {
      onset: ramp(Math.abs(t.onsetDelaySeconds), 0.25, 1.5),
      duration: ramp(Math.abs(Math.log2(Math.max(1e-3, t.durationRatio))), 0.1, 1),
      pauses: t.pauseAgreement,
    },
  };
}

/** Parts when there is no actor to compare with: judged against ordinary expressive speech. */
export function soloParts(voice: ScoringVoice, pitchRangeSt: number | null, loudnessRangeDb: number): Parts {
  const rate = voice.figures.syllablesPerSecond;
  const range =
    pitchRangeSt === null
      ? 0
      : clamp01((pitchRangeSt - SOLO.pitchFlatSt) / (SOLO.pitchFullSt - SOLO.pitchFlatSt));
  const dyn = clamp01((loudnessRangeDb - SOLO.loudFlatDb) / (SOLO.loudFullDb - SOLO.loudFlatDb));
  return {
    intonation: { distance: range, shape: range, range },
    energy: { distance: dyn, shape: dyn, range: dyn },
    timing: {
      // No window to compare with: a late start of more than 1.5 s into the clip is the only signal.
      onset: ramp(voice.segments.onsetSeconds ?? 0, 1.5, 3),
      duration: rate === null ? 0.5 : rate < 2.5 ? ramp(rate, 2.5, 1) : ramp(rate, 6.5, 9),
      pauses: 1,
    },
  };
}

export function subScoresFromParts(p: Parts): { intonation: number; energy: number; timing: number } {
  return {
    intonation: 100 * (0.4 * p.intonation.distance + 0.3 * p.intonation.shape + 0.3 * p.intonation.range),
    energy: 100 * (0.4 * p.energy.distance + 0.3 * p.energy.shape + 0.3 * p.energy.range),
    timing: 100 * (0.3 * p.timing.onset + 0.45 * p.timing.duration + 0.25 * p.timing.pauses),
  };
}

export function overallScore(s: {
  emotion: number;
  intonation: number;
  energy: number;
  timing: number;
  quality: number;
}): number {
  const weighted =
    WEIGHTS.emotion * s.emotion +
    WEIGHTS.intonation * s.intonation +
    WEIGHTS.energy * s.energy +
    WEIGHTS.timing * s.timing +
    WEIGHTS.quality * s.quality;
  // A bad recording makes every other measure unreliable, so it caps the total.
  return Math.min(weighted, s.quality + 30);
}
