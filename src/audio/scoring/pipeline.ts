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
 * A stored reference with its reading: `emotion` when the actor was already read (readActorLines,
 * against the actor's voice), else read cold.
 */
export function fromReferenceRecord(
  record: ReferenceRecord,
  emotion: EmotionEstimate | null = null,
): AnalysedReference {
  const analysis = deserializeAnalysis(record.analysis);
  return { analysis, emotion: emotion ?? classifyEmotion(analysis.features, null) };
}

/** One actor line for readActorLines: its features, its voice (film and role), and its part in it. */
export interface ActorLine {
  id: string;
  features: Float64Array;
  /** Lines of one role in one film share a voice. */
  voice: string;
  /** Whether the line is one of the voice's ACTOR_VOICE_LINES. */
  inVoice: boolean;
}

/**
 * Each line's actor read against the statistics of the actor's other lines (the voice's lines but
 * this one), as a learner's take is read against their own earlier takes: one recording of an unknown
 * voice says more about the voice than the emotion. `npm run eval:match` measures the difference
 * (EmoDB pairs, and nemo-dev's "actor read against its other lines" row). A line whose voice has no
 * other line is read cold.
 */
export function readActorLines(lines: readonly ActorLine[]): Map<string, EmotionEstimate> {
  const voices = new Map<string, ActorLine[]>();
  for (const l of lines) if (l.inVoice) voices.set(l.voice, [...(voices.get(l.voice) ?? []), l]);
  // One order whatever the caller's, so a line reads the same in a take's score and in a report.
  for (const members of voices.values()) members.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const out = new Map<string, EmotionEstimate>();
  for (const line of lines) {
    let stats: SpeakerStats | null = null;
    for (const other of voices.get(line.voice) ?? [])
      if (other.id !== line.id) stats = updateSpeakerStats(stats, other.features);
    out.set(line.id, classifyEmotion(line.features, stats));
  }
  return out;
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
    /**
     * The language of the line (the film's, BCP 47), which picks the typical voices a take's arousal is
     * read against: a first take's directly, and a warmed-up learner's through the statistics they are
     * shrunk toward (src/audio/analysis/emotion.ts); unknown: voices of every language.
     */
    language?: string | null;
  },
): ScoredTake {
  const analysis = analyzeVoice(samples, sampleRate);
  const emotion = classifyEmotion(analysis.features, options.speakerStats, undefined, {
    language: options.language ?? undefined,
  });
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
