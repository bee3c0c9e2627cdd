import type { FilmSummary } from '../../api/contract';

/** Films the learner touched, most recent first. */
export function recentFilms(films: readonly FilmSummary[], limit = 3): FilmSummary[] {
  return films
    .filter((f) => f.progress.lastActivityAt)
    .sort((a, b) => String(b.progress.lastActivityAt).localeCompare(String(a.progress.lastActivityAt)))
    .slice(0, limit);
}
