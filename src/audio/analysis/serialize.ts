import { FEATURE_NAMES } from './feature-names';
import type { SerializedAnalysis, VoiceAnalysis } from './types';

/** JSON-safe copy (typed arrays become arrays; frame values rounded to keep stored results small). */
export function serializeAnalysis(a: VoiceAnalysis): SerializedAnalysis {
  const r = (v: ArrayLike<number>, d: number) => Array.from(v, (x) => Math.round(x * 10 ** d) / 10 ** d);
  return {
    sampleRate: a.sampleRate,
    durationSeconds: a.durationSeconds,
    frames: {
      hopSeconds: a.frames.hopSeconds,
      f0Hz: r(a.frames.f0Hz, 2),
      voicing: r(a.frames.voicing, 3),
      intensityDb: r(a.frames.intensityDb, 2),
      loudness: r(a.frames.loudness, 3),
    },
    segments: { ...a.segments, pauses: a.segments.pauses.map((p) => ({ ...p })) },
    quality: { ...a.quality },
    featureNames: [...FEATURE_NAMES],
    features: Array.from(a.features),
    figures: { ...a.figures },
  };
}

/**
 * Inverse of serializeAnalysis. Features are mapped by name, so a result stored by an older
 * feature set still loads: features it lacks become NaN, which classifyEmotion treats as "unknown"
 * (the population mean after normalisation).
 */
export function deserializeAnalysis(s: SerializedAnalysis): VoiceAnalysis {
  const features = new Float64Array(FEATURE_NAMES.length);
  const index = new Map(s.featureNames.map((n, i) => [n, i]));
  FEATURE_NAMES.forEach((name, i) => {
    const j = index.get(name);
    features[i] = j === undefined ? Number.NaN : s.features[j];
  });
  return {
    sampleRate: s.sampleRate,
    durationSeconds: s.durationSeconds,
    frames: {
      hopSeconds: s.frames.hopSeconds,
      f0Hz: Float32Array.from(s.frames.f0Hz),
      voicing: Float32Array.from(s.frames.voicing),
      intensityDb: Float32Array.from(s.frames.intensityDb),
      loudness: Float32Array.from(s.frames.loudness),
    },
    segments: { ...s.segments, pauses: s.segments.pauses.map((p) => ({ ...p })) },
    quality: { ...s.quality },
    features,
    figures: { ...s.figures },
  };
}
