import type { FastifyInstance } from 'fastify';
import {
  ENDPOINTS,
  type Part,
  prptReportRequest,
  type ReportUrlData,
  reportByIdRequest,
  reportUrlRequest,
  soundSuggestRequest,
} from '../../../src/api/contract';
import { findFilm } from '../../films/queries';
import { notFound } from '../../lib/app-error';
import { publicBase } from '../../lib/public-url';
import { ok } from '../../lib/reply';
import { requestLang } from '../../lib/words';
import { currentUser } from '../../plugins/auth';
import type { ZodTypeProvider } from '../../plugins/schemas';
import { buildRunReport } from '../../reports/build-report';
import { dubVideoOf } from '../../renders/dub-video';
import { createShareToken, shareSecret } from '../../reports/share-link';
import { soundSuggestion } from '../../reports/sound-suggest';
import { findRun, latestRun, pickRun, runHasTakes } from '../../takes/runs';
import { signReport, takeLinkSigner } from '../../takes/audio-links';

const NO_RUN = { prpo: 'error.reportNotFound', prpt: 'error.noPartTwoRun' } as const;

/** Reports, share links and (part two) the sound suggestion; each reads one run (docs/api.md, "Runs"). */
export function reportRoutes(part: Part) {
  const calls =
    part === 'prpo'
      ? { report: ENDPOINTS.getPrpo_report, url: ENDPOINTS.getReportH5Url }
      : { report: ENDPOINTS.getPrpTReport, url: ENDPOINTS.getPrpTReportH5Url };

  return async (fastify: FastifyInstance): Promise<void> => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const deps = { db: app.db, storage: app.storage, scoring: app.scoring, log: app.log };
    const reportRequest = part === 'prpo' ? reportByIdRequest : prptReportRequest;

    app.get(
      calls.report.path,
      { preValidation: app.authenticate, schema: { querystring: reportRequest } },
      async (request) => {
        const run = await pickRun(app.db, currentUser(request).id, part, request.query);
        if (!run) throw notFound(request.query.id ? NO_RUN.prpo : NO_RUN[part]);
        const [report, sign] = await Promise.all([
          buildRunReport({ ...deps, log: request.log }, run),
          takeLinkSigner(app.db, app.config.takeLinkTtlSeconds),
        ]);
        if (part === 'prpt') {
          report.dubVideo = await dubVideoOf(
            { ...deps, renders: app.renders, log: request.log, lang: requestLang(request) },
            run,
          );
        }
        return ok(signReport(sign, report));
      },
    );

    app.get(
      calls.url.path,
      { preValidation: app.authenticate, schema: { querystring: reportUrlRequest } },
      async (request) => {
        const run = await pickRun(app.db, currentUser(request).id, part, request.query);
        if (!run) throw notFound(request.query.id ? NO_RUN.prpo : NO_RUN[part]);
        const { token, expiresAt } = createShareToken(await shareSecret(app.db), run.id);
        const data: ReportUrlData = {
          url: `${publicBase(request)}/producer/h5/report/${token}`,
          expiresAt: new Date(expiresAt).toISOString(),
        };
        return ok(data);
      },
    );

    if (part !== 'prpt') return;

    app.post(
      ENDPOINTS.getSoundSuggest.path,
      { bodyLimit: 4 * 1024, preValidation: app.authenticate, schema: { body: soundSuggestRequest } },
      async (request) => {
        const { filmId, lang, runId } = request.body;
        const userId = currentUser(request).id;
        if (!(await findFilm(app.db, filmId, 'prpt'))) {
          throw notFound('error.filmNotFound');
        }
        const run = runId
          ? await findRun(app.db, runId, userId)
          : await latestRun(app.db, userId, filmId, 'prpt');
        if (!run || run.film_id !== filmId || !(await runHasTakes(app.db, run.id))) {
          throw notFound('error.noTakes');
        }
        const signTake = await takeLinkSigner(app.db, app.config.takeLinkTtlSeconds);
        const mediaUrl = (key: string) => app.storage.url(key);
        return ok(await soundSuggestion({ db: app.db, run, lang, signTake, mediaUrl }));
      },
    );
  };
}
