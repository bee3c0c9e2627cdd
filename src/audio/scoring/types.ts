import type { Emotion } from '../../api/contract';
import type { EmotionEstimate, VoiceAnalysis } from '../analysis/types';

/**
 * What scoring reads from one voice's analysis: a structural subset of the analysis module's
 * `VoiceAnalysis`, so a full analysis can be passed as is, while tests can build synthetic ones and
 * frame tracks may be plain arrays (a cached reference read back from JSON).
 */
export interface ScoringVoice
  extends Pick<VoiceAnalysis, 'durationSeconds' | 'segments' | 'quality' | 'figures'> {
  frames: {
    hopSeconds: number;
    /** Hz per frame, 0 where unvoiced. */
    f0Hz: ArrayLike<number>;
    /** Frame intensity in dB. */
    intensityDb: ArrayLike<number>;
  };
}

export type VoiceQuality = VoiceAnalysis['quality'];
export type PauseSpan = VoiceAnalysis['segments']['pauses'][number];
export type EmotionReading = EmotionEstimate;

/** What the learner's emotion is compared with. */
export type EmotionTarget =
  | { kind: 'annotated'; emotion: Emotion }
  | { kind: 'actor'; reading: EmotionReading }
  | { kind: 'none' };
