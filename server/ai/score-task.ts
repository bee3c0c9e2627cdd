/**
 * The job that runs inside a pool worker (node:worker_threads via piscina): decode, analyse, score.
 * Everything CPU-heavy for a take happens here, never on the request event loop.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Emotion, ProsodyFigures, SpeechScore } from '../../src/api/contract';
import {
  analyzeVoice,
  deserializeAnalysis,
  type EmotionEstimate,
  type SpeakerStats,
  trackPitch,
} from '../../src/audio/analysis';
import { resampleSinc } from '../../src/audio/analysis/resample-sinc';
import { HOP_SECONDS, TARGET_SAMPLE_RATE } from '../../src/audio/constants';
import { compareVoices } from '../../src/audio/scoring/compare';
import { decodeWav, encodeWav16, toMono } from '../../src/audio/dsp/wav';
import { type MelodyRefusal, resynthesiseWithMelody } from '../../src/audio/scoring/melody';
import { plotMelodyPitch } from '../../src/audio/scoring/score';
import {
  type AnalysedReference,
  analyseReference,
  fromReferenceRecord,
  readActorLines,
  type ReferenceRecord,
  scoreTake,
  type TakeMeta,
  toReferenceRecord,
} from '../../src/audio/scoring/pipeline';

export interface ScoreJob {
  /** The learner's wav bytes (header already checked on the event loop). */
  wav: Uint8Array;
  /** Cached actor analysis, or the actor's wav to analyse now, or nothing (line without reference). */
  reference: { record: ReferenceRecord } | { wav: Uint8Array } | null;
  targetEmotion: Emotion | null;
  speakerStats: SpeakerStats | null;
  /**
   * The actor's reading of the line against the actor's voice (server/ai/reference.ts, actorReadings),
   * the one a report shows; absent (older queued jobs, or no reading to be had): the line read cold.
   */
  actorEmotion?: EmotionEstimate | null;
  /** The film's language (films.language), for reading a first take against voices like it; null: unknown. */
  language?: string | null;
  meta: TakeMeta;
  /**
   * Where the take goes for its word check (server/ai/take-words.ts, wordSamplesChannel): posted as
   * soon as it is decoded, before the analysis, so the check runs beside it from this one decode;
   * null instead when the take is refused or the job fails before that.
   */
  wordsPort?: MessagePort;
}

/** A take as the word check reads it (server/words): mono at the rate both engines decode. */
export interface WordSamples {
  samples: Float32Array;
  sampleRate: number;
}

/** The word check's rate: 16 kHz, what pocketsphinx's model and the Mandarin model read. */
export const WORD_SAMPLE_RATE = TARGET_SAMPLE_RATE;

function wordSamples(samples: Float32Array, sampleRate: number): WordSamples {
  const at16k = resampleSinc(samples, sampleRate, WORD_SAMPLE_RATE);
  // At the same rate resampleSinc hands back its input, which the analysis still reads: send a copy.
  return { samples: at16k === samples ? samples.slice() : at16k, sampleRate: WORD_SAMPLE_RATE };
}

/** A take refused after decoding: the samples themselves are unusable. */
export interface ScoreJobRefusal {
  refused: { reason: 'non_finite_samples'; count: number };
}

export interface ScoreJobResult {
  refused?: undefined;
  score: SpeechScore;
  /** The learner's utterance features (for the running speaker statistics). */
  features: number[];
  /** Set when the reference was analysed in this job, so the caller can cache it. */
  referenceRecord: ReferenceRecord | null;
  /** The take with the actor's melody (16-bit wav at the take's rate), or why not; null without an actor. */
  melody: { wav: Uint8Array } | { refused: MelodyRefusal } | null;
}

function mono(bytes: Uint8Array): { samples: Float32Array; sampleRate: number; nonFinite: number } {
  const decoded = decodeWav(bytes);
  const samples = toMono(decoded);
  // A NaN or Inf in any channel survives the mix-down, so counting after it finds every one.
  let nonFinite = 0;
  for (let i = 0; i < samples.length; i++) if (!Number.isFinite(samples[i])) nonFinite += 1;
  return { samples, sampleRate: decoded.sampleRate, nonFinite };
}

export function runScoreJob(job: ScoreJob): ScoreJobResult | ScoreJobRefusal {
  const port = job.wordsPort;
  let posted = false;
  try {
    return scoreJob(job, (words) => {
      port?.postMessage(words, [words.samples.buffer as ArrayBuffer]);
      posted = true;
    });
  } finally {
    // Always one message: the port's close is not seen on the other thread, a null is.
    if (!posted) port?.postMessage(null);
    port?.close();
  }
}

function scoreJob(job: ScoreJob, forWords: (words: WordSamples) => void): ScoreJobResult | ScoreJobRefusal {
  // One non-finite sample would turn every measure of the take into NaN and its score into 0.
  const take = mono(job.wav);
  if (take.nonFinite > 0) return { refused: { reason: 'non_finite_samples', count: take.nonFinite } };
  if (job.wordsPort) forWords(wordSamples(take.samples, take.sampleRate));
  let reference: AnalysedReference | null = null;
  let referenceRecord: ReferenceRecord | null = null;
  if (job.reference && 'record' in job.reference)
    reference = fromReferenceRecord(job.reference.record, job.actorEmotion);
  else if (job.reference) {
    const actor = mono(job.reference.wav);
    reference = analyseReference(actor.samples, actor.sampleRate);
    referenceRecord = toReferenceRecord(reference);
    if (job.actorEmotion) reference = { ...reference, emotion: job.actorEmotion };
  }
  const scored = scoreTake(take.samples, take.sampleRate, {
    meta: job.meta,
    reference,
    targetEmotion: job.targetEmotion,
    speakerStats: job.speakerStats,
    language: job.language,
  });
  let melody: ScoreJobResult['melody'] = null;
  let score = scored.score;
  if (reference) {
    const comparison = compareVoices(scored.analysis, reference.analysis);
    const made = resynthesiseWithMelody({
      take: take.samples,
      sampleRate: take.sampleRate,
      learner: scored.analysis,
      actor: reference.analysis,
      comparison,
    });
    if (made.ok) {
      melody = { wav: new Uint8Array(encodeWav16(made.samples, made.sampleRate)) };
      // What the learner will hear, read back from the made audio (not the contour it aimed at).
      const melodyPitch = plotMelodyPitch(comparison, trackPitch(made.samples, made.sampleRate), HOP_SECONDS);
      score = { ...score, contours: { ...score.contours, melodyPitch } };
    } else melody = { refused: made.reason };
  }
  return { score, features: Array.from(scored.features), referenceRecord, melody };
}

export interface WordSamplesJob {
  /** Audio of a line as stored (the actor's reference). */
  wav: Uint8Array;
}

/** Audio for the word check (server/ai/take-words.ts, referenceWords); null when its samples are unusable. */
export function wordSamplesJob(job: WordSamplesJob): WordSamples | null {
  const audio = mono(job.wav);
  return audio.nonFinite > 0 ? null : wordSamples(audio.samples, audio.sampleRate);
}

export interface WarmupJob {
  /** The learner's warm-up wav (header already checked on the event loop). */
  wav: Uint8Array;
}

/**
 * A warm-up's features (server/takes/warmup.ts), or why it cannot stand for the learner's voice: the
 * same rule as a take folded into the running statistics (server/ai/score-and-store.ts, countsAsVoice).
 */
export type WarmupJobResult =
  | { features: number[] }
  | { refused: 'non_finite_samples' | 'no_speech' | 'no_pitch' | 'non_finite_features' };

export function warmupJob(job: WarmupJob): WarmupJobResult {
  const take = mono(job.wav);
  if (take.nonFinite > 0) return { refused: 'non_finite_samples' };
  const analysis = analyzeVoice(take.samples, take.sampleRate);
  if (!analysis.quality.speechDetected) return { refused: 'no_speech' };
  if (analysis.figures.pitchMedianHz === null) return { refused: 'no_pitch' };
  const features = Array.from(analysis.features);
  if (!features.every((x) => Number.isFinite(x))) return { refused: 'non_finite_features' };
  return { features };
}

/** piscina calls the default export with the job. */
export default runScoreJob;

export interface ReferenceJob {
  /**
   * The lines to read, each against the lines of its voice marked `inVoice` (a role's first
   * ACTOR_VOICE_LINES lines in the film).
   */
  lines: Array<{
    subtitleId: string;
    record?: ReferenceRecord;
    wav?: Uint8Array;
    /** Film and role: lines of one voice are read against each other. */
    voice: string;
    inVoice: boolean;
  }>;
}

export interface ActorReading {
  detected: Emotion;
  arousal: number;
  valence: number;
  probabilities: Record<Emotion, number>;
  figures: ProsodyFigures;
}

export interface ReferenceJobResult {
  lines: Array<{ subtitleId: string; actor: ActorReading | null; analysed: ReferenceRecord | null }>;
}

/**
 * The actors' readings of some lines (for a take's score and for a report alike): each line's cached
 * analysis, or its reference wav analysed now and handed back for caching, read against the other
 * lines of its voice (readActorLines). A line whose audio cannot be read gets no reading rather than
 * failing the job, and does not count towards its voice.
 */
export function readReferencesJob(job: ReferenceJob): ReferenceJobResult {
  const analysed = job.lines.map(({ subtitleId, record, wav }) => {
    try {
      if (record) return { subtitleId, analysis: deserializeAnalysis(record.analysis), fresh: null };
      if (!wav) return { subtitleId, analysis: null, fresh: null };
      const actor = mono(wav);
      const reference = analyseReference(actor.samples, actor.sampleRate);
      return { subtitleId, analysis: reference.analysis, fresh: toReferenceRecord(reference) };
    } catch {
      return { subtitleId, analysis: null, fresh: null };
    }
  });
  const readings = readActorLines(
    job.lines.flatMap((l, i) => {
      const analysis = analysed[i].analysis;
      return analysis
        ? [{ id: l.subtitleId, features: analysis.features, voice: l.voice, inVoice: l.inVoice }]
        : [];
    }),
  );
  return {
    lines: job.lines.map((l, i) => {
      const { analysis, fresh } = analysed[i];
      const emotion = analysis ? readings.get(l.subtitleId) : undefined;
      const actor = emotion && analysis ? { ...pickReading(emotion), figures: analysis.figures } : null;
      return { subtitleId: l.subtitleId, actor, analysed: fresh };
    }),
  };
}

function pickReading({ detected, arousal, valence, probabilities }: EmotionEstimate) {
  return { detected, arousal, valence, probabilities };
}
