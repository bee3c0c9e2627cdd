import { signal } from '@preact/signals-react';
import { getMovieDetail_prpo, getMovieDetail_prpt, getMovies_prpo, getMovies_prpt } from '../../api/calls';
import type { FilmDetail, FilmList, FilmSummary, Part } from '../../api/contract';
import { Code } from '../../api/contract/constants';
import { ApiError } from '../../api/errors';
import type { MovieDetail } from '../lib/movie-detail';
import { makeLoader } from './loader';
import { onClearLocalData } from './session';

/** The film calls that differ between the parts (docs/api.md); the state kept of them is the same. */
interface FilmCalls {
  movies(): Promise<FilmList>;
  detail(id: string): Promise<FilmDetail>;
}

const CALLS: Record<Part, FilmCalls> = {
  prpo: {
    movies: () => getMovies_prpo({ page: 1, pageSize: 100 }),
    detail: (id) => getMovieDetail_prpo({ id }),
  },
  prpt: {
    movies: () => getMovies_prpt({ page: 1, pageSize: 100 }),
    detail: (id) => getMovieDetail_prpt({ id }),
  },
};

/**
 * One part's films: movies and movieDetail (with the subtitle windows in seconds), with their
 * loaders (failures logged only, stores/loader.ts). Emptied by logout and session expiry.
 */
export function createFilmStore(part: Part) {
  const calls = CALLS[part];
  const movies = signal<FilmSummary[]>([]);
  const movieDetail = signal<MovieDetail | null>(null);
  /**
   * The film whose detail the server said does not exist (code 404), so a screen says "film not
   * found" rather than blaming the network; null after any other outcome.
   */
  const missingFilm = signal<string | null>(null);
  const reset = () => {
    movies.value = [];
    movieDetail.value = null;
    missingFilm.value = null;
  };
  onClearLocalData(reset);
  return {
    part,
    movies,
    movieDetail,
    missingFilm,
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
            import('../lib/movie-detail'),
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
    reset,
  };
}

export type FilmStore = ReturnType<typeof createFilmStore>;

export const prpo = createFilmStore('prpo');
export const prpt = createFilmStore('prpt');

export const filmStore = (part: Part): FilmStore => (part === 'prpo' ? prpo : prpt);
