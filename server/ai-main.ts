import type { FastifyInstance } from 'fastify';
import { build } from './app';
import { ConfigError, loadConfig } from './config';

/**
 * `npm run start:ai`: the AI service alone (spec §7 puts it on its own host), on AI_PORT (8081).
 * Same core plugins and database as the producer, only the /ai routes.
 */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const app: FastifyInstance = await build(config, { services: ['ai'] });
  let closing = false;
  const stop = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    app.log.info(`${signal} received: shutting down gracefully`);
    setTimeout(() => process.exit(1), 10_000).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  await app.listen({ port: config.aiPort, host: config.host });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
