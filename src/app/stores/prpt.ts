import { signal } from '@preact/signals-react';
import {
  getMovieDetail_prpt,
  getMovies_prpt,
  getPrpTReport,
  getPrpTReportH5Url,
  getSoundSuggest,
  saveQA_prpt,
} from '../../api/calls';
import type {
  FilmSummary,
  Report,
  SaveQuestionRecordData,
  SaveQuestionRecordRequest,
  SoundSuggestData,
} from '../../api/contract';
import { makeLoader } from './loader';
import { type MovieDetail, withSubtitleSeconds } from './movie-detail';
import { readJson, writeJson } from './storage';
import { clearScores, SCORES_KEY } from './sub-titles-scores';
import { userAction } from './user-action';

export {
  clearScores,
  nextAttempt,
  playableSource,
  recordAttempt,
  type SubTitlesScores,
  type SubtitleScore,
  subTitlesScores,
} from './sub-titles-scores';

/** prpt state (spec §3). */
export const movies = signal<FilmSummary[]>([]);
export const movieDetail = signal<MovieDetail | null>(null);
export const prpTReport = signal<Report | null>(null);
export const reportH5Url = signal<string>('');

/** soundSuggest keeps the server's fields plus `lines`: audioInterpret split at newlines, empty lines dropped. */
export type SoundSuggest = SoundSuggestData & { lines: string[] };
export const SOUND_SUGGEST_KEY = 'prpt.soundSuggest';

export function splitLines(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

export const soundSuggest = signal<SoundSuggest | null>(
  readJson<SoundSuggest>(sessionStorage, SOUND_SUGGEST_KEY),
);

export function setSoundSuggest(data: SoundSuggestData | null): void {
  const value = data ? { ...data, lines: splitLines(data.audioInterpret) } : null;
  soundSuggest.value = value;
  writeJson(sessionStorage, SOUND_SUGGEST_KEY, value);
}

export const loadMovies = makeLoader(
  'prpt movies',
  () => getMovies_prpt({ page: 1, pageSize: 100 }),
  (r) => {
    movies.value = r.list;
  },
);

export const loadMovieDetail = makeLoader(
  'prpt movie detail',
  async (id: string) => withSubtitleSeconds(await getMovieDetail_prpt({ id })),
  (d) => {
    movieDetail.value = d;
  },
);

export const loadSoundSuggest = makeLoader(
  'prpt sound suggestion',
  (filmId: string, lang: 'zh' | 'en' = 'zh') => getSoundSuggest({ filmId, lang }),
  setSoundSuggest,
);

export const loadReport = makeLoader(
  'prpt report',
  () => getPrpTReport(),
  (r) => {
    prpTReport.value = r;
  },
);

export const loadReportH5Url = makeLoader(
  'prpt report url',
  (id?: string) => getPrpTReportH5Url(id ? { id } : {}),
  (r) => {
    reportH5Url.value = r.url;
  },
);

/** A user action: failures are shown, then rethrown. */
export function saveAnswers(req: SaveQuestionRecordRequest): Promise<SaveQuestionRecordData> {
  return userAction(() => saveQA_prpt(req));
}

export function resetPrpt(): void {
  movies.value = [];
  movieDetail.value = null;
  prpTReport.value = null;
  reportH5Url.value = '';
  clearScores();
  setSoundSuggest(null);
  sessionStorage.removeItem(SCORES_KEY);
}
