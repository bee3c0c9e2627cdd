// Acoustic analysis and emotion model: pure TypeScript (no DOM, no Node globals), shared by the
// browser worker and the AI service. See docs in each module; the model file is produced by
// `npm run train:emotion` and evaluated by `npm run eval:emotion`.
export { analyzeVoice, CLIP_LEVEL, MAX_SAMPLE_RATE, MIN_SAMPLE_RATE, trackPitch } from './analyze-voice';
export {
  classifyEmotion,
  emotionModel,
  normalizeFeatures,
  type ReadingContext,
  typicalVoices,
} from './emotion';
export type { EmotionModelFile, EmotionNaming } from './emotion-model-schema';
export { FEATURE_NAMES } from './feature-names';
export { deserializeAnalysis, serializeAnalysis } from './serialize';
export { updateSpeakerStats } from './speaker-stats';
export type {
  EmotionEstimate,
  FrameTrack,
  SerializedAnalysis,
  SpeakerStats,
  SpeechSegments,
  VoiceAnalysis,
  VoiceQuality,
} from './types';
