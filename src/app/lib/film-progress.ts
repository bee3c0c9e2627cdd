import type { FilmSummary } from '../../api/contract';
import type { Part } from './paths';

/** Films the learner touched, most recent first. */
export function recentFilms(films: readonly FilmSummary[], limit = 3): FilmSummary[] {
  return films
    .filter((f) => f.progress.lastActivityAt)
    .sort((a, b) => String(b.progress.lastActivityAt).localeCompare(String(a.progress.lastActivityAt)))
    .slice(0, limit);
}

/** 0–1 completion of a film for its part: answering, plus (prpt) the dubbed share of the lines. */
export function filmCompletion(film: FilmSummary, part: Part): number | null {
  const p = film.progress;
  if (!p.answered && p.dubbedLines === 0) return null;
  if (part === 'prpo') return p.answered ? 1 : 0;
  const dub = p.totalLines > 0 ? Math.min(1, p.dubbedLines / p.totalLines) : 0;
  return (p.answered ? 0.3 : 0) + 0.7 * dub;
}
