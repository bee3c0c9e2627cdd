import type { Kysely } from 'kysely';
import type { SoundSuggestData, SuggestWordsLine, WordCheck } from '../../src/api/contract';
import { type InterpretLine, interpretVoice } from '../../src/audio/scoring/interpret';
import { fact, word } from '../../src/i18n';
import type { Database, RunsTable } from '../db/schema';
import { filmLines } from '../films/queries';
import { runAttempts } from '../takes/repository';

export interface SoundSuggestInput {
  db: Kysely<Database>;
  run: RunsTable;
  lang: 'zh' | 'en';
  /** Signs a take's audio path (server/takes/audio-links.ts); a media key's URL (the actor's line). */
  signTake: (url: string) => string;
  mediaUrl: (key: string) => string;
}

/** Whether a take's words need another go: checked, and another line, or a word missed or unclear. */
const wordsToPractise = (words: WordCheck | undefined): words is Extract<WordCheck, { status: 'checked' }> =>
  words?.status === 'checked' && (words.otherLine || words.words.some((w) => w.state !== 'said'));

/**
 * get_sounds_interpretation: a run's first and second attempt per line (the rule of
 * server/takes/attempts.ts, the same the report uses) turned into the newline-separated suggestion;
 * its figures by the rule of src/audio/scoring/aggregate.ts, as the report's.
 */
export async function soundSuggestion(input: SoundSuggestInput): Promise<SoundSuggestData> {
  const { db, run, lang } = input;
  const filmId = run.film_id;
  const [subtitles, attempts] = await Promise.all([filmLines(db, filmId), runAttempts(db, run.id)]);
  const lines: InterpretLine[] = subtitles
    .filter((s) => attempts.has(s.id))
    .map((s) => ({
      subtitlesId: s.id,
      index: s.idx,
      text: s.text,
      first: attempts.get(s.id)?.first.score ?? null,
      second: attempts.get(s.id)?.second?.score ?? null,
      target: s.target_emotion,
    }));
  const result = interpretVoice(lines, subtitles.length);
  // Worded by the shared catalogue in the asked language; each point keeps its topic and figures,
  // so the client shows the figures without reading the text.
  const points = result.statements.map((s) => {
    const head = s.headed ? word(fact(`topic.${s.topic}`), lang) : null;
    const body = word(s.fact, lang);
    const text = head === null ? body : word(fact('suggest.line', { topic: head, text: body }), lang);
    return { topic: s.topic, text, head, body, figures: s.figures };
  });
  const audioInterpret = points.map((p) => p.text).join('\n');
  const words: SuggestWordsLine[] = subtitles.flatMap((s) => {
    const take = attempts.get(s.id);
    const latest = take?.second?.score ?? take?.first.score;
    if (!latest?.quality.speechDetected || !wordsToPractise(latest.words)) return [];
    return [
      {
        subtitlesId: s.id,
        index: s.idx,
        words: latest.words,
        actorWords: latest.actorWords ?? null,
        audioUrl: input.signTake(latest.audioUrl),
        ...(s.reference_audio_key ? { referenceAudio: input.mediaUrl(s.reference_audio_key) } : {}),
      },
    ];
  });
  return {
    filmId,
    lang,
    audioInterpret,
    figures: result.figures,
    subScores: result.subScores,
    pitchDistanceSt: result.pitchDistanceSt,
    ...(words.length ? { words } : {}),
    points,
  };
}
