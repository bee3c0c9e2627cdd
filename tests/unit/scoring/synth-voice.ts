import type { ProsodyFigures } from '../../../src/api/contract';
import type { EmotionReading, ScoringVoice, VoiceQuality } from '../../../src/audio/scoring/types';

/** Builds an analysis-shaped voice from pitch and loudness functions of time (s within the speech). */
export interface SynthOptions {
  durationSeconds?: number;
  onset?: number;
  offset?: number;
  /** Hz at time t since onset (0 = unvoiced). */
  pitch?: (t: number, span: number) => number;
  /** dB re full scale at time t since onset. */
  loudness?: (t: number, span: number) => number;
  /** Silent gaps (absolute seconds). */
  pauses?: Array<{ start: number; end: number }>;
  quality?: Partial<VoiceQuality>;
  figures?: Partial<ProsodyFigures>;
}

export const HOP = 0.01;

export function synthVoice(o: SynthOptions = {}): ScoringVoice {
  const duration = o.durationSeconds ?? 2;
  const onset = o.onset ?? 0.3;
  const offset = o.offset ?? 1.7;
  const span = offset - onset;
  const pitch = o.pitch ?? ((t, s) => 200 * 2 ** ((4 * Math.sin((Math.PI * t) / s)) / 12));
  const loudness = o.loudness ?? ((t, s) => -20 + 6 * Math.sin((2 * Math.PI * t) / s));
  const pauses = o.pauses ?? [];
  const n = Math.round(duration / HOP);
  const f0Hz = new Float32Array(n);
  const intensityDb = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const time = (i + 0.5) * HOP;
    const inPause = pauses.some((p) => time >= p.start && time < p.end);
    if (time >= onset && time < offset && !inPause) {
      f0Hz[i] = pitch(time - onset, span);
      intensityDb[i] = loudness(time - onset, span);
    } else {
      f0Hz[i] = 0;
      intensityDb[i] = -70;
    }
  }
  const pausedSeconds = pauses.reduce((s, p) => s + (p.end - p.start), 0);
  return {
    durationSeconds: duration,
    frames: { hopSeconds: HOP, f0Hz, intensityDb },
    segments: {
      onsetSeconds: onset,
      offsetSeconds: offset,
      speechSeconds: span - pausedSeconds,
      pauses,
      voicedSegments: pauses.length + 1,
    },
    quality: {
      peakDbfs: -6,
      clippedFraction: 0,
      noiseFloorDb: -70,
      snrDb: 45,
      speechDetected: true,
      ...o.quality,
    },
    figures: {
      durationMs: duration * 1000,
      speechMs: (span - pausedSeconds) * 1000,
      pitchMedianHz: null,
      pitchRangeSemitones: null,
      loudnessMeanDb: -20,
      loudnessRangeDb: 12,
      syllablesPerSecond: 4.5,
      pauseCount: pauses.length,
      jitterPct: null,
      shimmerDb: null,
      hnrDb: null,
      ...o.figures,
    },
  };
}

export function silentVoice(): ScoringVoice {
  const v = synthVoice({ pitch: () => 0, loudness: () => -90 });
  return {
    ...v,
    segments: { onsetSeconds: null, offsetSeconds: null, speechSeconds: 0, pauses: [], voicedSegments: 0 },
    quality: { peakDbfs: -90, clippedFraction: 0, noiseFloorDb: -90, snrDb: null, speechDetected: false },
  };
}

const ZERO = { anger: 0, boredom: 0, disgust: 0, fear: 0, happiness: 0, sadness: 0, neutral: 0 };

/** An emotion reading with `p` on `detected` and the rest spread evenly. */
export function reading(
  detected: EmotionReading['detected'],
  p = 0.8,
  arousal = 0,
  valence = 0,
): EmotionReading {
  const probabilities = { ...ZERO };
  for (const k of Object.keys(probabilities) as Array<keyof typeof ZERO>) probabilities[k] = (1 - p) / 6;
  probabilities[detected] = p;
  return { detected, probabilities, arousal, valence };
}
