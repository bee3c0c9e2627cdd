import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { User } from '../../src/api/contract';
import { findSessionUser } from '../auth/sessions';
import { loginExpired } from '../lib/app-error';

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler for protected routes: sets request.user or answers code 1002. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    user: User | null;
  }
}

/** Reads the `token` header (spec §6), looks up its hash and checks the expiry. */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('user', null);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.token;
      const token = Array.isArray(header) ? header[0] : header;
      // The client sends the cookie value; "undefined" is what a missing cookie turns into (spec §6).
      if (!token || token === 'undefined' || token.length > 200) throw loginExpired();
      const user = await findSessionUser(app.db, token);
      if (!user) throw loginExpired();
      request.user = user;
    });
  },
  { name: 'app-auth', dependencies: ['app-db'] },
);

/** For handlers behind `authenticate`: the user is always set there. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw loginExpired();
  return request.user;
}
