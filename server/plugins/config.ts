import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

/** `app.config`: the validated configuration, for routes and services. */
export const configPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config }) => {
    app.decorate('config', opts.config);
  },
  { name: 'app-config' },
);
