import type { Emotion, ProsodyFigures } from '../../api/contract';

/**
 * Frame-level tracks, one value per 10 ms hop (HOP_SECONDS). Frame i is centred at
 * (i + 0.5) * hopSeconds on the take's timeline.
 */
export interface FrameTrack {
  hopSeconds: number;
  /** Fundamental frequency in Hz; 0 where unvoiced. */
  f0Hz: Float32Array;
  /** 0..1 periodicity: normalised autocorrelation at the chosen (or best) lag. */
  voicing: Float32Array;
  /**
   * Intensity in dB re digital full scale (mean square of a 32 ms Hann-weighted frame, mean removed):
   * a full-scale sine reads -3 dB. Praat's dB SPL (which treats samples as pascals) is this + 93.98 dB.
   */
  intensityDb: Float32Array;
  /**
   * Perceptual loudness proxy: the sum over 26 mel bands of band power to the 0.3 power
   * (Stevens' power law, as in openSMILE's auditory-spectrum loudness). Arbitrary units, >= 0.
   */
  loudness: Float32Array;
}

export interface SpeechSegments {
  /** First speech frame (s), null when no speech was found. */
  onsetSeconds: number | null;
  /** End of the last speech frame (s), null when no speech was found. */
  offsetSeconds: number | null;
  /** Speech time between onset and offset, pauses excluded (s). */
  speechSeconds: number;
  /** Silent gaps of at least 200 ms between onset and offset. */
  pauses: Array<{ start: number; end: number }>;
  /** Number of voiced stretches (at least 30 ms). */
  voicedSegments: number;
}

export interface VoiceQuality {
  /** Peak sample level in dB re full scale (-Infinity is reported as -120). */
  peakDbfs: number;
  /** Fraction of samples at or beyond 0.999 of full scale. */
  clippedFraction: number;
  /** 10th percentile of frame intensity (dBFS). */
  noiseFloorDb: number;
  /** Mean speech intensity minus the noise floor (dB); null when no speech. */
  snrDb: number | null;
  speechDetected: boolean;
}

export interface VoiceAnalysis {
  sampleRate: number;
  durationSeconds: number;
  frames: FrameTrack;
  segments: SpeechSegments;
  quality: VoiceQuality;
  /** Utterance functionals, order = FEATURE_NAMES. */
  features: Float64Array;
  figures: ProsodyFigures;
}

/** JSON-safe form of VoiceAnalysis (typed arrays become plain arrays). */
export interface SerializedAnalysis {
  sampleRate: number;
  durationSeconds: number;
  frames: {
    hopSeconds: number;
    f0Hz: number[];
    voicing: number[];
    intensityDb: number[];
    loudness: number[];
  };
  segments: SpeechSegments;
  quality: VoiceQuality;
  featureNames: string[];
  features: number[];
  figures: ProsodyFigures;
}

/** Running per-speaker feature statistics (Welford), one entry per feature. */
export interface SpeakerStats {
  count: number;
  mean: number[];
  m2: number[];
}

export interface EmotionEstimate {
  detected: Emotion;
  probabilities: Record<Emotion, number>;
  /** -1 (calm) .. 1 (aroused). */
  arousal: number;
  /** -1 (negative) .. 1 (positive). */
  valence: number;
}
