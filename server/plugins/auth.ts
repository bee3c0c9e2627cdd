import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { User } from '../../src/api/contract';
import { findSessionUser } from '../auth/sessions';
import { loginExpired } from '../lib/app-error';

declare module 'fastify' {
  interface FastifyInstance {
    /** preValidation hook of protected routes (after body parsing, before input validation): sets request.user or answers code 1002. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /**
     * preValidation hook of a protected route whose handler checks the session in its own statement
     * (server/films/queries.ts, `listFilms`; server/films/answers.ts, `saveQuestionRecord`): answers
     * code 1002 when no token is sent.
     */
    requireToken: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;
  }
  interface FastifyRequest {
    user: User | null;
  }
}

/**
 * The `token` header (docs/api.md, "Auth"), or null when it is missing or cannot be a token. The client sends the
 * cookie value; "undefined" is what a missing cookie turns into.
 */
export function requestToken(request: FastifyRequest): string | null {
  const header = request.headers.token;
  const token = Array.isArray(header) ? header[0] : header;
  if (!token || token === 'undefined' || token.length > 200) return null;
  return token;
}

/** Reads the `token` header, looks up its hash and checks the expiry. */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('user', null);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = requestToken(request);
      if (!token) throw loginExpired();
      const user = await findSessionUser(app.db, token);
      if (!user) throw loginExpired();
      request.user = user;
    });
    // A callback hook: no promise per request (docs/performance.md, "The film list against its floor").
    app.decorate(
      'requireToken',
      (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) =>
        requestToken(request) ? done() : done(loginExpired()),
    );
  },
  { name: 'app-auth', dependencies: ['app-db'] },
);

/** For handlers behind `requireToken`: the token it found. */
export function sentToken(request: FastifyRequest): string {
  const token = requestToken(request);
  if (!token) throw loginExpired();
  return token;
}

/** For handlers behind `authenticate`: the user is always set there. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw loginExpired();
  return request.user;
}
