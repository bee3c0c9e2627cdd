import { type SoundSuggestData, type SpeechScore, speechScore } from '../../src/api/contract';
import { type InterpretLine, interpretVoice } from '../../src/audio/scoring/interpret';
import type { SoundSuggestInput } from '../reports/sound-suggest';

/**
 * get_sounds_interpretation (the producer route calls this through its seam in
 * server/reports/sound-suggest.ts): the learner's stored takes of one film, first and second attempt
 * per line, turned into the newline-separated sound suggestion.
 */
export async function interpretTakes(input: SoundSuggestInput): Promise<SoundSuggestData> {
  const { db, userId, filmId, lang } = input;
  const subtitles = await db
    .selectFrom('subtitles')
    .select(['id', 'idx', 'text'])
    .where('film_id', '=', filmId)
    .orderBy('idx')
    .execute();
  const takes = await db
    .selectFrom('takes')
    .select(['subtitle_id', 'attempt', 'result', 'created_at'])
    .where('user_id', '=', userId)
    .where('film_id', '=', filmId)
    .orderBy('created_at')
    .execute();

  // Same choice as the report: first = the earliest attempt-1 take, second = the latest attempt-2 take.
  const byLine = new Map<string, { first: SpeechScore | null; second: SpeechScore | null }>();
  for (const t of takes) {
    const parsed = speechScore.safeParse(JSON.parse(t.result));
    if (!parsed.success) continue; // a result from an incompatible version is skipped, not fatal
    const entry = byLine.get(t.subtitle_id) ?? { first: null, second: null };
    if (t.attempt >= 2) entry.second = parsed.data;
    else entry.first ??= parsed.data;
    byLine.set(t.subtitle_id, entry);
  }
  const lines: InterpretLine[] = subtitles
    .filter((s) => byLine.has(s.id))
    .map((s) => ({
      subtitlesId: s.id,
      index: s.idx,
      text: s.text,
      ...(byLine.get(s.id) ?? { first: null, second: null }),
    }));
  const result = interpretVoice(lines, subtitles.length);
  return { filmId, lang, audioInterpret: result[lang].join('\n'), figures: result.figures };
}
