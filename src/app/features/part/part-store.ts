import { signal } from '@preact/signals-react';
import {
  getMovieDetail_prpo,
  getMovieDetail_prpt,
  getMovies_prpo,
  getMovies_prpt,
  getPrpo_report,
  getPrpTReport,
  getPrpTReportH5Url,
  getReportH5Url,
  saveQA_prpo,
  saveQA_prpt,
} from '../../../api/calls';
import type {
  FilmDetail,
  FilmList,
  FilmSummary,
  Part,
  Report,
  ReportUrlData,
  SaveQuestionRecordData,
  SaveQuestionRecordRequest,
} from '../../../api/contract';
import { Code } from '../../../api/contract/constants';
import { ApiError } from '../../../api/errors';
import { makeLoader } from '../../stores/loader';
import { onClearLocalData } from '../../stores/session';
import { userAction } from '../../stores/user-action';
import type { MovieDetail } from './movie-detail';

/**
 * Which run's report: prpo a record id (save_question_record's recordId) or a run id; prpt nothing
 * (the learner's latest training, spec §7), a run id, or a film (that film's latest run).
 */
export interface ReportSelector {
  id?: string;
  runId?: string;
  filmId?: string;
}

/** The calls that differ between the parts (spec §7); everything else about a part's state is the same. */
interface PartCalls {
  movies(): Promise<FilmList>;
  detail(id: string): Promise<FilmDetail>;
  save(req: SaveQuestionRecordRequest): Promise<SaveQuestionRecordData>;
  report(sel: ReportSelector): Promise<Report>;
  /** The signed H5 link of the run whose report is shown. */
  reportUrl(sel: { id?: string; runId?: string }): Promise<ReportUrlData>;
}

const CALLS: Record<Part, PartCalls> = {
  prpo: {
    movies: () => getMovies_prpo({ page: 1, pageSize: 100 }),
    detail: (id) => getMovieDetail_prpo({ id }),
    save: saveQA_prpo,
    report: (sel) => getPrpo_report(sel.runId ? { runId: sel.runId } : { id: sel.id ?? '' }),
    reportUrl: (sel) => getReportH5Url(sel),
  },
  prpt: {
    movies: () => getMovies_prpt({ page: 1, pageSize: 100 }),
    detail: (id) => getMovieDetail_prpt({ id }),
    save: saveQA_prpt,
    report: (sel) => getPrpTReport({ runId: sel.runId, filmId: sel.filmId }),
    reportUrl: (sel) => getPrpTReportH5Url(sel),
  },
};

/**
 * One part's state (spec §3): movies, movieDetail (with the subtitle windows in seconds), the report
 * (`prpoReport` / `prpTReport`) and reportH5Url, with their loaders (failures logged only, spec §8)
 * and the save-answers action (failures shown, then rethrown). Emptied by logout and session expiry.
 * prpt's subTitlesScores and soundSuggest live beside it: sub-titles-scores.ts, sound-suggest.ts.
 */
export function createPartStore(part: Part) {
  const calls = CALLS[part];
  const movies = signal<FilmSummary[]>([]);
  const movieDetail = signal<MovieDetail | null>(null);
  /**
   * The film whose detail the server said does not exist (code 404), so a screen says "film not
   * found" rather than blaming the network; null after any other outcome.
   */
  const missingFilm = signal<string | null>(null);
  const report = signal<Report | null>(null);
  const reportH5Url = signal<string>('');
  const reset = () => {
    movies.value = [];
    movieDetail.value = null;
    missingFilm.value = null;
    report.value = null;
    reportH5Url.value = '';
  };
  onClearLocalData(reset);
  return {
    part,
    movies,
    movieDetail,
    missingFilm,
    report,
    reportH5Url,
    loadMovies: makeLoader(`${part} movies`, calls.movies, (r) => {
      movies.value = r.list;
    }),
    loadMovieDetail: makeLoader(
      `${part} movie detail`,
      // The subtitle-time code comes with the first detail: the first screen shows none.
      async (id: string) => {
        try {
          const [detail, { withSubtitleSeconds }] = await Promise.all([
            calls.detail(id),
            import('./movie-detail'),
          ]);
          missingFilm.value = null;
          return withSubtitleSeconds(detail);
        } catch (e) {
          missingFilm.value = e instanceof ApiError && e.code === Code.NOT_FOUND ? id : null;
          throw e;
        }
      },
      (d) => {
        movieDetail.value = d;
      },
    ),
    loadReport: makeLoader(
      `${part} report`,
      (sel: ReportSelector = {}) => calls.report(sel),
      (r) => {
        report.value = r;
      },
    ),
    loadReportH5Url: makeLoader(
      `${part} report url`,
      (sel: { id?: string; runId?: string }) => calls.reportUrl(sel),
      (r) => {
        reportH5Url.value = r.url;
      },
    ),
    /**
     * A user action: failures are shown, then rethrown. Saved answers may start a new run (docs/api.md,
     * "Runs"), and a new run starts clean: the film's takes kept on this device belong to the old one.
     */
    saveAnswers: (req: SaveQuestionRecordRequest) =>
      userAction(async () => {
        // The takes' scores are not on the first screen, so they load here; before the save, so a
        // failed load stops it rather than leaving a saved run whose old takes are still shown.
        const scores = part === 'prpt' ? await import('./sub-titles-scores') : null;
        const saved = await calls.save(req);
        scores?.adoptRunScores(saved.filmId, saved.runId ?? null, []);
        return saved;
      }),
    reset,
  };
}

export type PartStore = ReturnType<typeof createPartStore>;

export const prpo = createPartStore('prpo');
export const prpt = createPartStore('prpt');
/** The spec's names for the two reports (spec §3). */
export const prpoReport = prpo.report;
export const prpTReport = prpt.report;

export const partStore = (part: Part): PartStore => (part === 'prpo' ? prpo : prpt);
