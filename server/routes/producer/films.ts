import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ENDPOINTS,
  filmDetailRequest,
  filmList,
  filmListRequest,
  type Part,
  saveQuestionRecordRequest,
} from '../../../src/api/contract';
import { saveQuestionRecord } from '../../films/answers';
import { filmActorPitch } from '../../films/actor-pitch';
import { filmDetail, findFilmCached, listFilms } from '../../films/queries';
import { loginExpired, notFound } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import { sayTo } from '../../lib/words';
import { currentUser, sentToken } from '../../plugins/auth';
import { wordsNotCheckedFor } from '../../words';
import { okResponse, type ZodTypeProvider } from '../../plugins/schemas';

/** Film list, film detail and answer saving for one part (prpo or prpt), as docs/api.md gives them. */
export function filmRoutes(part: Part) {
  const calls =
    part === 'prpo'
      ? { list: ENDPOINTS.getMovies_prpo, detail: ENDPOINTS.getMovieDetail_prpo, save: ENDPOINTS.saveQA_prpo }
      : {
          list: ENDPOINTS.getMovies_prpt,
          detail: ENDPOINTS.getMovieDetail_prpt,
          save: ENDPOINTS.saveQA_prpt,
        };

  return async (fastify: FastifyInstance): Promise<void> => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const deps = { db: app.db, storage: app.storage };
    const listResponse = okResponse(filmList);

    // The learner's session is checked in the list's own statement (listFilms): one round trip less.
    const list = async (request: FastifyRequest, { page, pageSize }: { page: number; pageSize: number }) => {
      const listed = await listFilms(deps, sentToken(request), part, page, pageSize);
      if (!listed) throw loginExpired();
      request.user = listed.user;
      return ok(listed.list);
    };
    // prpo lists with a form-encoded POST, prpt with a GET query (docs/api.md, show_film_picture); same answer.
    if (calls.list.method === 'GET') {
      app.get(
        calls.list.path,
        {
          preValidation: app.requireToken,
          schema: { querystring: filmListRequest, response: { 200: listResponse } },
        },
        (request) => list(request, request.query),
      );
    } else {
      app.post(
        calls.list.path,
        {
          bodyLimit: 4 * 1024,
          preValidation: app.requireToken,
          schema: { body: filmListRequest, response: { 200: listResponse } },
        },
        (request) => list(request, request.body),
      );
    }

    app.post(
      calls.detail.path,
      { bodyLimit: 4 * 1024, preValidation: app.authenticate, schema: { body: filmDetailRequest } },
      async (request) => {
        const film = await findFilmCached(app.db, request.body.id, part);
        if (!film) throw notFound('error.filmNotFound');
        const detail = await filmDetail(deps, currentUser(request).id, film, part);
        if (part === 'prpt') {
          // The dub page's pitch guide: the actor's contour per line (server/films/actor-pitch.ts).
          const contours = await filmActorPitch(
            { db: app.db, storage: app.storage, scoring: app.scoring, log: request.log },
            film,
          );
          for (const s of detail.subtitlesList) s.actorPitch = contours.get(s.id) ?? null;
          // Told before a first take when the words will not be checked (docs/words.md).
          detail.wordsNotChecked = wordsNotCheckedFor(detail.language);
        }
        return ok(detail);
      },
    );

    app.post(
      calls.save.path,
      {
        bodyLimit: 128 * 1024,
        preValidation: app.requireToken,
        config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
        schema: { body: saveQuestionRecordRequest },
      },
      async (request) => {
        const film = await findFilmCached(app.db, request.body.filmId, part);
        if (!film) throw notFound('error.filmNotFound');
        // The session is checked with the save, in its statement on PostgreSQL: one round trip.
        const stored = await saveQuestionRecord(app.db, sentToken(request), part, request.body);
        if (!stored) throw loginExpired();
        request.user = stored.user;
        return ok(stored.saved, sayTo(request, 'answers.saved'));
      },
    );
  };
}
