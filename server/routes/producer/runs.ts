import type { FastifyInstance } from 'fastify';
import {
  type Part,
  RUN_ENDPOINTS,
  type RunStateData,
  runHistoryData,
  runHistoryRequest,
  runStateRequest,
} from '../../../src/api/contract';
import { recordData } from '../../films/answers';
import { filmLines, findFilm } from '../../films/queries';
import { notFound } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import { currentUser } from '../../plugins/auth';
import { okResponse, type ZodTypeProvider } from '../../plugins/schemas';
import { summariseRuns } from '../../reports/run-summaries';
import { signScore, takeLinkSigner } from '../../takes/audio-links';
import { runAttempts } from '../../takes/repository';
import { findRun, latestRun, listRuns, runRecord } from '../../takes/runs';

/** A learner's runs in one part: the history list and the state of one run (docs/api.md, "Runs"). */
export function runRoutes(part: Part) {
  const calls =
    part === 'prpo'
      ? { state: RUN_ENDPOINTS.getRun_prpo, history: RUN_ENDPOINTS.getRunHistory_prpo }
      : { state: RUN_ENDPOINTS.getRun_prpt, history: RUN_ENDPOINTS.getRunHistory_prpt };

  return async (fastify: FastifyInstance): Promise<void> => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    // Serialised by the contract's schema (fast-json-stringify, server/plugins/schemas.ts okResponse).
    const historyResponse = okResponse(runHistoryData);
    app.get(
      calls.history.path,
      {
        preValidation: app.authenticate,
        schema: { querystring: runHistoryRequest, response: { 200: historyResponse } },
      },
      async (request) => {
        const { filmId, limit } = request.query;
        const runs = await listRuns(app.db, currentUser(request).id, part, filmId, limit);
        return ok({ runs: await summariseRuns(app.db, runs) });
      },
    );

    app.get(
      calls.state.path,
      { preValidation: app.authenticate, schema: { querystring: runStateRequest } },
      async (request) => {
        const { filmId, runId } = request.query;
        const userId = currentUser(request).id;
        if (!(await findFilm(app.db, filmId, part))) throw notFound('error.filmNotFound');
        const run = runId
          ? await findRun(app.db, runId, userId)
          : await latestRun(app.db, userId, filmId, part);
        if (runId && (!run || run.film_id !== filmId || run.part !== part)) {
          throw notFound('error.runNotFound');
        }
        if (!run) return ok<RunStateData>({ run: null, answers: null, lines: [] });
        const [summary, record, attempts, lines, sign] = await Promise.all([
          summariseRuns(app.db, [run]),
          runRecord(app.db, run.id),
          runAttempts(app.db, run.id),
          filmLines(app.db, filmId),
          takeLinkSigner(app.db, app.config.takeLinkTtlSeconds),
        ]);
        return ok<RunStateData>({
          run: summary[0],
          answers: record ? recordData(record) : null,
          lines: lines.flatMap((l) => {
            const a = attempts.get(l.id);
            return a
              ? [
                  {
                    subtitlesId: l.id,
                    first: signScore(sign, a.first.score),
                    second: a.second ? signScore(sign, a.second.score) : null,
                    takes: a.all.length,
                  },
                ]
              : [];
          }),
        });
      },
    );
  };
}
