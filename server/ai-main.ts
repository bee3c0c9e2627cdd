import type { FastifyInstance } from 'fastify';
import { build } from './app';
import { installShutdown, loadConfigOrExit } from './lib/process-lifecycle';

/**
 * `npm run start:ai`: the AI service alone (docs/api.md, "AI service": its own host), on AI_PORT (8081).
 * Same core plugins and database as the producer, only the /ai routes.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const app: FastifyInstance = await build(config, { services: ['ai'] });
  installShutdown(app);
  await app.listen({ port: config.aiPort, host: config.host });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
