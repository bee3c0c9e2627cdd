/**
 * The word check of a take in the scoring path (server/ai/score-and-store.ts), which the
 * single-process default and the BullMQ scoring workers both run: which words of its line the take
 * said (server/words), and the same check of the line's reference audio, made once per imported audio
 * and cached, so a word can be cut from the actor's line and from the take alike (docs/score.md).
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import { type WordCheck, wordCheck } from '../../src/api/contract';
import type { Database } from '../db/schema';
import { nowIso } from '../lib/ids';
import { parseJson } from '../lib/json';
import type { MediaStorage } from '../storage/media-storage';
import { primaryLanguage, type WordCheckInput } from '../words';
import type { ScoringPool } from './pool';
import type { WordSamples } from './score-task';

/** The word check used by the scoring path: the engines of server/words (a test may pass another). */
export type WordChecker = (input: WordCheckInput) => Promise<WordCheck>;

/** What the word check of a take needs to know about its line. */
export interface LineWords {
  subtitleId: string;
  /** The line as the subtitle shows it. */
  text: string;
  /** The film's language (films.language), null when it declares none. */
  language: string | null;
  /** The line's reference audio key ('' without one). */
  referenceKey: string;
}

/** The line's text and its film's language, or null for an unknown line. */
export async function lineWords(db: Kysely<Database>, subtitleId: string): Promise<LineWords | null> {
  const row = await db
    .selectFrom('subtitles')
    .innerJoin('films', 'films.id', 'subtitles.film_id')
    .select(['subtitles.text', 'subtitles.reference_audio_key', 'films.language'])
    .where('subtitles.id', '=', subtitleId)
    .executeTakeFirst();
  return row
    ? { subtitleId, text: row.text, language: row.language, referenceKey: row.reference_audio_key }
    : null;
}

interface Log {
  warn: (obj: object, msg: string) => void;
}

/**
 * The take for its word check, from the scoring job's own decode: `port` goes into the job
 * (ScoreJob.wordsPort), which posts the take at 16 kHz before it analyses it; `samples` is that
 * take, or null when the job posts nothing (a refused take, a job that never ran or failed).
 */
export function wordSamplesChannel(): { port: MessagePort; samples: Promise<WordSamples | null> } {
  const { port1, port2 } = new MessageChannel();
  const samples = new Promise<WordSamples | null>((resolve) => {
    port1.once('message', (m: WordSamples | null) => {
      resolve(m);
      port1.close();
    });
  });
  // A job lost with its worker thread never answers; the waiting port must not keep the process up.
  port1.unref();
  return { port: port2, samples };
}

/**
 * The word check of some audio of a line (mono, at the word check's rate: ScoreJob.wordsPort and
 * ScoringPool.wordSamples make it off the event loop). An engine that fails (crashes, or answers
 * something that is not a WordCheck) costs the take its words, never the take: it is answered "not
 * checked", and the failure is logged.
 */
export async function checkLineWords(
  check: WordChecker,
  line: LineWords,
  audio: WordSamples,
  log: Log,
): Promise<WordCheck> {
  const language = primaryLanguage(line.language);
  try {
    return wordCheck.parse(await check({ ...audio, text: line.text, language: line.language }));
  } catch (err) {
    log.warn({ err, subtitleId: line.subtitleId, language }, 'word check failed; the take is scored without');
    return { status: 'unchecked', reason: 'engine_failed', language };
  }
}

/**
 * The word check of the line's reference audio: cached per reference audio key and film language,
 * else made now and cached (unless the engine failed or is missing). Null for
 * a line without reference audio or whose audio cannot be read.
 */
export async function referenceWords(
  deps: { db: Kysely<Database>; storage: MediaStorage; log: Log; pool: Pick<ScoringPool, 'wordSamples'> },
  check: WordChecker,
  line: LineWords,
): Promise<WordCheck | null> {
  if (!line.referenceKey) return null;
  const cached = await deps.db
    .selectFrom('reference_words')
    .select(['audio_key', 'language', 'words'])
    .where('subtitle_id', '=', line.subtitleId)
    .executeTakeFirst();
  if (cached && cached.audio_key === line.referenceKey && cached.language === line.language) {
    const parsed = wordCheck.safeParse(parseJson<unknown>(cached.words, null));
    if (parsed.success) return parsed.data;
  }
  const wav = await deps.storage.get(line.referenceKey).catch(() => null);
  if (!wav) return null;
  const audio = await deps.pool.wordSamples({ wav: new Uint8Array(wav) });
  if (!audio) return null;
  const words = await checkLineWords(check, line, audio, deps.log);
  // Only a lasting answer is kept: an engine that failed, or is not installed yet, is asked again
  // on the next take (an engine installed later then checks the actor too).
  if (words.status === 'unchecked' && (words.reason === 'engine_failed' || words.reason === 'engine_missing'))
    return words;
  const values = {
    audio_key: line.referenceKey,
    language: line.language,
    words: JSON.stringify(words),
    created_at: nowIso(),
  };
  await deps.db
    .insertInto('reference_words')
    .values({ subtitle_id: line.subtitleId, ...values })
    .onConflict((oc) => oc.column('subtitle_id').doUpdateSet(values))
    .execute();
  return words;
}
