import type { FastifyInstance } from 'fastify';
import {
  ENDPOINTS,
  filmDetailRequest,
  filmListRequest,
  type Part,
  saveQuestionRecordRequest,
} from '../../../src/api/contract';
import { saveQuestionRecord } from '../../films/answers';
import { filmDetail, findFilm, listFilms } from '../../films/queries';
import { notFound } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import { validate } from '../../lib/validate';
import { currentUser } from '../../plugins/auth';

const FILM_NOT_FOUND = '影片';

/** Film list, film detail and answer saving for one part (prpo or prpt), per the spec's table. */
export function filmRoutes(part: Part) {
  const calls =
    part === 'prpo'
      ? { list: ENDPOINTS.getMovies_prpo, detail: ENDPOINTS.getMovieDetail_prpo, save: ENDPOINTS.saveQA_prpo }
      : {
          list: ENDPOINTS.getMovies_prpt,
          detail: ENDPOINTS.getMovieDetail_prpt,
          save: ENDPOINTS.saveQA_prpt,
        };

  return async (app: FastifyInstance): Promise<void> => {
    const deps = { db: app.db, storage: app.storage };

    // prpo lists with a form-encoded POST, prpt with a GET query (spec §7); same answer.
    app.route({
      method: calls.list.method,
      url: calls.list.path,
      bodyLimit: 4 * 1024,
      preHandler: app.authenticate,
      handler: async (request) => {
        const input = validate(filmListRequest, calls.list.method === 'GET' ? request.query : request.body);
        return ok(await listFilms(deps, currentUser(request).id, part, input.page, input.pageSize));
      },
    });

    app.post(calls.detail.path, { bodyLimit: 4 * 1024, preHandler: app.authenticate }, async (request) => {
      const { id } = validate(filmDetailRequest, request.body);
      const film = await findFilm(app.db, id, part);
      if (!film) throw notFound(FILM_NOT_FOUND);
      return ok(await filmDetail(deps, currentUser(request).id, film, part));
    });

    app.post(
      calls.save.path,
      {
        bodyLimit: 128 * 1024,
        preHandler: app.authenticate,
        config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      },
      async (request) => {
        const input = validate(saveQuestionRecordRequest, request.body);
        const film = await findFilm(app.db, input.filmId, part);
        if (!film) throw notFound(FILM_NOT_FOUND);
        return ok(await saveQuestionRecord(app.db, currentUser(request).id, part, input), '保存成功');
      },
    );
  };
}
