import { signal } from '@preact/signals-react';
import {
  getMovieDetail_prpo,
  getMovies_prpo,
  getPrpo_report,
  getReportH5Url,
  saveQA_prpo,
} from '../../api/calls';
import type {
  FilmSummary,
  Report,
  SaveQuestionRecordData,
  SaveQuestionRecordRequest,
} from '../../api/contract';
import { makeLoader } from './loader';
import { type MovieDetail, withSubtitleSeconds } from './movie-detail';
import { userAction } from './user-action';

/** prpo state (spec §3). */
export const movies = signal<FilmSummary[]>([]);
export const movieDetail = signal<MovieDetail | null>(null);
/** The report of one answer record (the contract's `report`; spec §3 calls it "prpoReport (list)"). */
export const prpoReport = signal<Report | null>(null);
export const reportH5Url = signal<string>('');

export const loadMovies = makeLoader(
  'prpo movies',
  () => getMovies_prpo({ page: 1, pageSize: 100 }),
  (r) => {
    movies.value = r.list;
  },
);

export const loadMovieDetail = makeLoader(
  'prpo movie detail',
  async (id: string) => withSubtitleSeconds(await getMovieDetail_prpo({ id })),
  (d) => {
    movieDetail.value = d;
  },
);

export const loadReport = makeLoader(
  'prpo report',
  (id: string) => getPrpo_report({ id }),
  (r) => {
    prpoReport.value = r;
  },
);

export const loadReportH5Url = makeLoader(
  'prpo report url',
  (id: string) => getReportH5Url({ id }),
  (r) => {
    reportH5Url.value = r.url;
  },
);

/** A user action: failures are shown, then rethrown. */
export function saveAnswers(req: SaveQuestionRecordRequest): Promise<SaveQuestionRecordData> {
  return userAction(() => saveQA_prpo(req));
}

export function resetPrpo(): void {
  movies.value = [];
  movieDetail.value = null;
  prpoReport.value = null;
  reportH5Url.value = '';
}
