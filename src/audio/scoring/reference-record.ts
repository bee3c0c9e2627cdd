/**
 * What the service caches per subtitle line (the actor's analysis), and whether a cached one still
 * fits this feature set. Imports no model, so code that only reads caches (the producer's reports)
 * does not load the emotion model.
 */
import { FEATURE_NAMES } from '../analysis/feature-names';
import { pitchFigures, robustPitchTrack } from '../analysis/pitch-figures';
import type { SerializedAnalysis } from '../analysis/types';

/**
 * The actor's analysis, computed once. The actor's emotion is re-read from the cached features each
 * time (one small forward pass), so a retrained model never serves a stale reference emotion.
 */
export interface ReferenceRecord {
  version: 1;
  /** Storage key of the audio this was computed from; a re-import with new audio invalidates it. */
  audioKey?: string;
  analysis: SerializedAnalysis;
}

/**
 * Whether a cached reference was analysed with the current feature set. One from an older set would
 * load with its missing features unknown and read the actor worse: analyse the audio again instead.
 */
export function hasCurrentFeatures(record: ReferenceRecord): boolean {
  const names = record.analysis?.featureNames;
  return (
    Array.isArray(names) &&
    names.length === FEATURE_NAMES.length &&
    names.every((n, i) => n === FEATURE_NAMES[i]) &&
    hasCurrentPitchFigures(record.analysis)
  );
}

/**
 * Whether the cached pitch range is the one the repaired track gives (pitch-figures.ts). One read
 * before the repair can quote a fricative as the actor's range (32 semitones for a 10 semitone line):
 * such a record is analysed again rather than shown.
 */
function hasCurrentPitchFigures(analysis: SerializedAnalysis): boolean {
  const f0 = analysis.frames?.f0Hz;
  if (!Array.isArray(f0)) return false;
  const { rangeSemitones } = pitchFigures(robustPitchTrack(f0, 0, f0.length, analysis.frames.hopSeconds));
  const stored = analysis.figures?.pitchRangeSemitones ?? null;
  if (rangeSemitones === null || stored === null) return rangeSemitones === stored;
  return Math.abs(Math.round(rangeSemitones * 100) / 100 - stored) < 0.006;
}

/**
 * Most lines of one role that stand for the actor's voice: the role's first lines in the film (fixed
 * per import, so every take and report reads a line alike). The analysis of each is cached, so only
 * a film's first take pays for them.
 */
export const ACTOR_VOICE_LINES = 24;
