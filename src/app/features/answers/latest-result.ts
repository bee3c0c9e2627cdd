import { getRun, getRunHistory } from '../../../api/calls';
import type { Part } from '../../../api/contract';
import { filmStore } from '../../stores/films';
import { type LastResult, readLastResult } from './answer-storage';

/**
 * The result screen's answers: the ones saved in this tab, else the learner's latest answered run
 * from the server (a new browser session still shows the film it answered; docs/api.md, "Runs").
 * Null when the learner has answered nothing in this part, or the calls failed (logged).
 */
export async function loadLatestResult(part: Part, filmId?: string): Promise<LastResult | null> {
  const here = readLastResult(part);
  if (filmId) return here?.filmId === filmId ? here : loadFilmResult(part, filmId);
  if (here) return here;
  try {
    const { runs } = await getRunHistory(part, { limit: 20 });
    const run = runs.find((r) => r.answered);
    if (!run) return null;
    const state = await getRun(part, { filmId: run.filmId, runId: run.runId });
    if (!state.answers) return null;
    const detail = await filmStore(part).loadMovieDetail(run.filmId);
    return {
      filmId: run.filmId,
      filmTitle: run.filmTitle,
      filmTitleEn: run.filmTitleEn,
      questions: detail?.questions ?? [],
      data: state.answers,
    };
  } catch (e) {
    console.error('[load] latest result failed', e);
    return null;
  }
}

/**
 * One film's result: the answers of its latest run (null when that run is not answered). The dub
 * page's "back to your result" names its film, so it never opens another film's result.
 */
async function loadFilmResult(part: Part, filmId: string): Promise<LastResult | null> {
  try {
    const [state, detail] = await Promise.all([
      getRun(part, { filmId }),
      filmStore(part).loadMovieDetail(filmId),
    ]);
    if (!state.answers || !detail) return null;
    return {
      filmId,
      filmTitle: detail.title,
      filmTitleEn: detail.titleEn,
      questions: detail.questions,
      data: state.answers,
    };
  } catch (e) {
    console.error('[load] film result failed', e);
    return null;
  }
}
