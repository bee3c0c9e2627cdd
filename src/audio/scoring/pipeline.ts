/**
 * The whole scoring of one take, from mono samples to the contract `SpeechScore` (pure). Shared by
 * the AI service's worker, the command-line analyser, the evaluation and the benchmark, so all four
 * measure the same thing.
 */
import type { Emotion, SpeechScore } from '../../api/contract';
import {
  analyzeVoice,
  classifyEmotion,
  deserializeAnalysis,
  type EmotionEstimate,
  type SpeakerStats,
  serializeAnalysis,
  updateSpeakerStats,
  type VoiceAnalysis,
} from '../analysis';
import type { ReferenceRecord } from './reference-record';
import { buildSpeechScore } from './score';

export { hasCurrentFeatures, type ReferenceRecord } from './reference-record';

export interface AnalysedReference {
  analysis: VoiceAnalysis;
  emotion: EmotionEstimate;
}

/** The actor is scored cold (no speaker history): the reference is one recording of one voice. */
export function analyseReference(samples: Float32Array, sampleRate: number): AnalysedReference {
  const analysis = analyzeVoice(samples, sampleRate);
  return { analysis, emotion: classifyEmotion(analysis.features, null) };
}

export function toReferenceRecord(ref: AnalysedReference): ReferenceRecord {
  return { version: 1, analysis: serializeAnalysis(ref.analysis) };
}

/**
 * A stored reference, read cold, or against the actor's own voice when `actorStats` (the statistics
 * of the actor's other lines in the film, actorStatsOf) are given: the actor's line-to-line changes
 * then count rather than their voice (eval:match's nemo-dev table, "actor read against its other lines").
 */
export function fromReferenceRecord(
  record: ReferenceRecord,
  actorStats: SpeakerStats | null = null,
): AnalysedReference {
  const analysis = deserializeAnalysis(record.analysis);
  return { analysis, emotion: classifyEmotion(analysis.features, actorStats) };
}

/** Running statistics of an actor's lines (their references), for fromReferenceRecord. */
export function actorStatsOf(records: ReferenceRecord[]): SpeakerStats | null {
  let stats: SpeakerStats | null = null;
  for (const r of records) stats = updateSpeakerStats(stats, deserializeAnalysis(r.analysis).features);
  return stats;
}

export interface TakeMeta {
  takeId: string;
  subtitlesId: string;
  filmId: string;
  attempt: number;
  audioUrl: string;
  createdAt: string;
}

export interface ScoredTake {
  score: SpeechScore;
  /** The learner's utterance features, for updating their running statistics afterwards. */
  features: Float64Array;
  analysis: VoiceAnalysis;
  emotion: EmotionEstimate;
}

/**
 * Analyses and scores a learner's take. `speakerStats` are the learner's statistics from earlier
 * takes (null on a first take: the classifier's cold start).
 */
export function scoreTake(
  samples: Float32Array,
  sampleRate: number,
  options: {
    meta: TakeMeta;
    reference: AnalysedReference | null;
    targetEmotion: Emotion | null;
    speakerStats: SpeakerStats | null;
  },
): ScoredTake {
  const analysis = analyzeVoice(samples, sampleRate);
  const emotion = classifyEmotion(analysis.features, options.speakerStats);
  const score = buildSpeechScore({
    ...options.meta,
    learner: analysis,
    learnerEmotion: emotion,
    actor: options.reference?.analysis ?? null,
    actorEmotion: options.reference?.emotion ?? null,
    targetEmotion: options.targetEmotion,
    speakerTakes: options.speakerStats?.count ?? 0,
  });
  return { score, features: analysis.features, analysis, emotion };
}
