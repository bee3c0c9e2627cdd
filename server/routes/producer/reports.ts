import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  Code,
  ENDPOINTS,
  type Part,
  type ReportUrlData,
  reportByIdRequest,
  reportUrlRequest,
  soundSuggestRequest,
} from '../../../src/api/contract';
import { findFilm } from '../../films/queries';
import { AppError } from '../../lib/app-error';
import { publicBase } from '../../lib/public-url';
import { ok } from '../../lib/reply';
import { sharedSecret } from '../../lib/settings';
import { validate } from '../../lib/validate';
import { currentUser } from '../../plugins/auth';
import { buildReport, findRecord } from '../../reports/build-report';
import { createShareToken } from '../../reports/share-link';
import { loadInterpreter } from '../../reports/sound-suggest';

export const SHARE_SECRET_KEY = 'report_share_secret';

const NO_RECORD = {
  prpo: '报告不存在 (report not found)',
  prpt: '还没有第二部分的训练记录，请先完成答题和配音 (no part-two training yet)',
} as const;

/** prpt's report call sends an empty payload (spec §7): the id is optional there. */
const prptReportRequest = z.object({ id: z.string().min(1).max(64).optional() });

/** Reports, share links and (part two) the sound suggestion. */
export function reportRoutes(part: Part) {
  const calls =
    part === 'prpo'
      ? { report: ENDPOINTS.getPrpo_report, url: ENDPOINTS.getReportH5Url }
      : { report: ENDPOINTS.getPrpTReport, url: ENDPOINTS.getPrpTReportH5Url };

  return async (app: FastifyInstance): Promise<void> => {
    const deps = { db: app.db, storage: app.storage };

    app.get(calls.report.path, { preHandler: app.authenticate }, async (request) => {
      const { id } = validate(part === 'prpo' ? reportByIdRequest : prptReportRequest, request.query);
      const record = await findRecord(app.db, currentUser(request).id, part, id);
      if (!record) throw new AppError(Code.NOT_FOUND, id ? NO_RECORD.prpo : NO_RECORD[part]);
      return ok(await buildReport(deps, record));
    });

    app.get(calls.url.path, { preHandler: app.authenticate }, async (request) => {
      const { id } = validate(reportUrlRequest, request.query);
      const record = await findRecord(app.db, currentUser(request).id, part, id);
      if (!record) throw new AppError(Code.NOT_FOUND, id ? NO_RECORD.prpo : NO_RECORD[part]);
      const { token, expiresAt } = createShareToken(await sharedSecret(app.db, SHARE_SECRET_KEY), record.id);
      const data: ReportUrlData = {
        url: `${publicBase(request)}/producer/h5/report/${token}`,
        expiresAt: new Date(expiresAt).toISOString(),
      };
      return ok(data);
    });

    if (part !== 'prpt') return;

    app.post(
      ENDPOINTS.getSoundSuggest.path,
      { bodyLimit: 4 * 1024, preHandler: app.authenticate },
      async (request) => {
        const input = validate(soundSuggestRequest, request.body);
        const userId = currentUser(request).id;
        if (!(await findFilm(app.db, input.filmId, 'prpt'))) {
          throw new AppError(Code.NOT_FOUND, '影片不存在 (film not found)');
        }
        const take = await app.db
          .selectFrom('takes')
          .select('id')
          .where('user_id', '=', userId)
          .where('film_id', '=', input.filmId)
          .limit(1)
          .executeTakeFirst();
        if (!take) throw new AppError(Code.NOT_FOUND, '还没有配音记录，请先完成配音');
        const interpretTakes = await loadInterpreter();
        if (!interpretTakes) {
          throw new AppError(
            Code.BUSY,
            '配音解读服务尚未就绪，请稍后再试 (interpretation service not available yet)',
            503,
          );
        }
        return ok(await interpretTakes({ ...deps, userId, filmId: input.filmId, lang: input.lang }));
      },
    );
  };
}
