import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Emotion, SpeechScore, WordCheck } from '../../src/api/contract';
import type { EmotionEstimate } from '../../src/audio/analysis';
import type { Database } from '../db/schema';
import type { MediaStorage } from '../storage/media-storage';
import type { ScoringPool } from './pool';
import { actorReadings, cacheReference, loadReference } from './reference';
import type { Config } from '../config';
import { findStoredTake, loadSpeakerStats, melodyKeyOf, storeTake, takeAudioKey } from '../takes/repository';
import { pruneLine } from '../takes/retention';
import { nonFiniteSamples } from './audio-check';
import { checkWords, primaryLanguage } from '../words';
import { withWords } from '../../src/audio/scoring/words';
import type { WordSamples } from './score-task';
import {
  checkLineWords,
  lineWords,
  referenceWords,
  type WordChecker,
  wordSamplesChannel,
} from './take-words';

/** A take accepted by the upload route: everything scoring needs besides the wav bytes. */
export interface TakeSubmission {
  /** Row id of the take (takes.id), derived from the learner and the client's takeId. */
  rowId: string;
  userId: string;
  /** The client's takeId (or the row id when it sent none), echoed in the score. */
  takeId: string;
  filmId: string;
  /** The run the take joins (server/takes/runs.ts), chosen by the upload route. */
  runId: string;
  subtitleId: string;
  attempt: number;
  referenceKey: string;
  targetEmotion: Emotion | null;
  /** When the upload was accepted (ISO-8601). */
  createdAt: string;
}

export interface ScoringDeps {
  db: Kysely<Database>;
  storage: MediaStorage;
  pool: ScoringPool;
  log: Pick<FastifyBaseLogger, 'warn'>;
  config: Pick<Config, 'takesRetakesKept'>;
  /** The word check (server/words); tests of a failing engine pass their own. */
  checkWords?: WordChecker;
}

/**
 * Only a take with speech says something about the learner's voice: it must have detected speech
 * with a pitch, and finite features, to be folded into the learner's running statistics.
 */
function countsAsVoice(score: SpeechScore, features: number[]): boolean {
  return (
    score.quality.speechDetected &&
    score.prosody.learner.pitchMedianHz !== null &&
    features.every((x) => Number.isFinite(x))
  );
}

/**
 * Scores a take in the worker pool and stores it: the actor's line and the learner's running
 * statistics in, the row (and, unless `audioStored`, the wav) out. Runs in the upload's own
 * process without a queue, and in a scoring worker with one (server/ai/queue.ts). A take whose row
 * exists is not scored again: its stored score is the answer, so a retried upload or a job taken
 * over from a dead worker never scores or stores twice.
 */
export async function scoreAndStore(
  deps: ScoringDeps,
  take: TakeSubmission,
  wav: Uint8Array,
  audioStored: boolean,
): Promise<SpeechScore> {
  const { db, storage, pool, log } = deps;
  const stored = await findStoredTake(db, take.rowId, take.userId);
  if (stored) return stored;
  // The words are checked beside the analysis, not after it: the take's words, and the actor's
  // (cached after the line's first take) so a word can be played from both (server/ai/take-words.ts).
  // The job posts the take at 16 kHz before analysing it, so the check starts from the job's one
  // decode, off the event loop; the actor's words start at once.
  const line = lineWords(deps.db, take.subtitleId);
  const forWords = wordSamplesChannel();
  const words = wordsOf(deps, take.subtitleId, line, forWords.samples);
  // The actor's reading first: it analyses and caches the line's reference (and its voice's) if new.
  const actorEmotion = await actorReadingOf(deps, take.subtitleId);
  const [reference, speakerStats, language] = await Promise.all([
    loadReference(db, storage, take.subtitleId, take.referenceKey, log),
    loadSpeakerStats(db, take.userId),
    line.then((l) => l?.language ?? null).catch(() => null),
  ]);
  const audioKey = takeAudioKey(take.userId, take.runId, take.rowId);
  const analysed = pool.run({
    // A private copy: the caller's buffer may share a pooled allocation, and this one is transferred.
    wav: new Uint8Array(wav),
    reference,
    targetEmotion: take.targetEmotion,
    speakerStats,
    actorEmotion,
    language,
    wordsPort: forWords.port,
    meta: {
      takeId: take.takeId,
      subtitlesId: take.subtitleId,
      filmId: take.filmId,
      attempt: take.attempt,
      audioUrl: storage.url(audioKey),
      createdAt: take.createdAt,
    },
  });
  const [result, checked] = await Promise.all([analysed, words]);
  if (result.refused) throw nonFiniteSamples(result.refused.count);
  if (result.referenceRecord) {
    await cacheReference(db, take.subtitleId, take.referenceKey, result.referenceRecord);
  }
  // The melody file goes first, like the take's audio, so a stored row never names a missing file;
  // start-up cleaning removes it if the row is never written (server/takes/retention.ts).
  let score = { ...withWords(result.score, checked.take), actorWords: checked.actor };
  const melodyKey = melodyKeyOf(audioKey);
  if (result.melody && 'wav' in result.melody) {
    await storage.put(melodyKey, Buffer.from(result.melody.wav));
    score = { ...score, melody: { status: 'ready', url: storage.url(melodyKey) } };
  } else if (result.melody) {
    score = { ...score, melody: { status: 'unavailable', reason: result.melody.refused } };
  }
  const first = await storeTake(db, storage, {
    rowId: take.rowId,
    userId: take.userId,
    filmId: take.filmId,
    runId: take.runId,
    subtitleId: take.subtitleId,
    attempt: take.attempt,
    audio: audioStored ? null : Buffer.from(wav),
    score,
    features: countsAsVoice(score, result.features) ? result.features : null,
  }).catch(async (err: unknown) => {
    if (score.melody?.status === 'ready') await storage.delete(melodyKey).catch(() => undefined);
    throw err;
  });
  if (!first) {
    const twin = await findStoredTake(db, take.rowId, take.userId);
    if (twin) return twin;
  }
  await pruneLine(db, storage, take.runId, take.subtitleId, deps.config.takesRetakesKept);
  return score;
}

/**
 * The word check of the take and of its line's reference audio. Never rejects: a failed check or a
 * line that cannot be read leaves the take scored on its delivery, saying its words were not checked.
 */
async function wordsOf(
  deps: ScoringDeps,
  subtitleId: string,
  lineOf: ReturnType<typeof lineWords>,
  samples: Promise<WordSamples | null>,
): Promise<{ take: WordCheck; actor: WordCheck | null }> {
  const check = deps.checkWords ?? checkWords;
  try {
    const line = await lineOf;
    if (!line) return { take: { status: 'unchecked', reason: 'no_text', language: null }, actor: null };
    const [take, actor] = await Promise.all([
      // No samples: the job refused the take or failed, and its own error is the answer.
      samples.then((audio): Promise<WordCheck> | WordCheck =>
        audio
          ? checkLineWords(check, line, audio, deps.log)
          : { status: 'unchecked', reason: 'engine_failed', language: primaryLanguage(line.language) },
      ),
      referenceWords(deps, check, line).catch((err: unknown) => {
        deps.log.warn({ err, subtitleId }, "the actor's word check failed; the take keeps its own");
        return null;
      }),
    ]);
    return { take, actor };
  } catch (err) {
    deps.log.warn({ err, subtitleId }, 'word check unavailable; the take is scored without');
    return { take: { status: 'unchecked', reason: 'engine_failed', language: null }, actor: null };
  }
}

/** The line's actor as a report reads them (against the actor's other lines), or null: read cold. */
async function actorReadingOf(deps: ScoringDeps, subtitleId: string): Promise<EmotionEstimate | null> {
  const line = await deps.db
    .selectFrom('subtitles')
    .select(['id', 'reference_audio_key', 'film_id', 'speaker'])
    .where('id', '=', subtitleId)
    .executeTakeFirst();
  if (!line) return null;
  const reading = (await actorReadings({ ...deps, scoring: deps.pool }, [line])).get(line.id);
  if (!reading) return null;
  const { detected, arousal, valence, probabilities } = reading;
  return { detected, arousal, valence, probabilities };
}
