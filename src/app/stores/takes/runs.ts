import { getRun, getRunHistory } from '../../../api/calls';
import type { Part, RunStateData, RunSummary } from '../../../api/contract';
import { makeLoader } from '../loader';
import { adoptRunScores } from './sub-titles-scores';

/**
 * A training run on the client (docs/api.md, "Runs"): the server keeps a run's answers and takes
 * together; the screens read the run the server names and never mix runs.
 */

/**
 * The dub screen's lines from the film's latest run: a new browser session shows the takes already
 * scored, a new run starts with none (sub-titles-scores.ts, adoptRunScores).
 */
export const loadRunScores = makeLoader(
  'prpt run scores',
  (filmId: string) => getRun('prpt', { filmId }),
  (state: RunStateData) => {
    if (state.run) adoptRunScores(state.run.filmId, state.run.runId, state.lines);
  },
);

/** The state of one run (the latest of the film without `runId`), or null when the call failed. */
export const loadRunState = makeLoader(
  'run state',
  (part: Part, filmId: string, runId?: string) => getRun(part, { filmId, runId }),
  () => {},
);

/** The learner's runs in a part, most recently active first (optionally of one film). */
export const loadRunHistory = makeLoader(
  'run history',
  async (part: Part, filmId?: string): Promise<RunSummary[]> =>
    (await getRunHistory(part, { filmId, limit: 20 })).runs,
  () => {},
);
