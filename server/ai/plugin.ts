import type { FastifyInstance } from 'fastify';
import { Code } from '../../src/api/contract';

/**
 * Placeholder for the AI service (owned by the AI helper, who replaces this file): answers every
 * /ai call with a clear 503 until the real plugin lands. Registered by server/app.ts at prefix /ai.
 */
export async function aiPlugin(app: FastifyInstance): Promise<void> {
  app.all('/*', async (_request, reply) =>
    reply.code(503).send({ code: Code.BUSY, msg: 'AI 服务尚未就绪', data: null }),
  );
}

export default aiPlugin;
