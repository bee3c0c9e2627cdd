/**
 * The job that runs inside a pool worker (node:worker_threads via piscina): decode, analyse, score.
 * Everything CPU-heavy for a take happens here, never on the request event loop.
 */
import type { Emotion, SpeechScore } from '../../src/api/contract';
import type { SpeakerStats } from '../../src/audio/analysis';
import { decodeWav, toMono } from '../../src/audio/dsp/wav';
import {
  type AnalysedReference,
  analyseReference,
  fromReferenceRecord,
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
  meta: TakeMeta;
}

export interface ScoreJobResult {
  score: SpeechScore;
  /** The learner's utterance features (for the running speaker statistics). */
  features: number[];
  /** Set when the reference was analysed in this job, so the caller can cache it. */
  referenceRecord: ReferenceRecord | null;
}

function mono(bytes: Uint8Array): { samples: Float32Array; sampleRate: number } {
  const decoded = decodeWav(bytes);
  return { samples: toMono(decoded), sampleRate: decoded.sampleRate };
}

export function runScoreJob(job: ScoreJob): ScoreJobResult {
  let reference: AnalysedReference | null = null;
  let referenceRecord: ReferenceRecord | null = null;
  if (job.reference && 'record' in job.reference) reference = fromReferenceRecord(job.reference.record);
  else if (job.reference) {
    const actor = mono(job.reference.wav);
    reference = analyseReference(actor.samples, actor.sampleRate);
    referenceRecord = toReferenceRecord(reference);
  }
  const take = mono(job.wav);
  const scored = scoreTake(take.samples, take.sampleRate, {
    meta: job.meta,
    reference,
    targetEmotion: job.targetEmotion,
    speakerStats: job.speakerStats,
  });
  return { score: scored.score, features: Array.from(scored.features), referenceRecord };
}

/** piscina calls the default export with the job. */
export default runScoreJob;
