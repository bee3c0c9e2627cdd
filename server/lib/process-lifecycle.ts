import type { FastifyInstance } from 'fastify';
import { type Config, ConfigError, loadConfig } from '../config';

/** Reads the configuration from the environment, or prints every problem and exits. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * Graceful shutdown on SIGINT/SIGTERM: stop the timers, stop accepting connections, let running
 * requests finish and close the database; force an exit after 10 s or on a second signal.
 */
export function installShutdown(app: FastifyInstance, timers: NodeJS.Timeout[] = []): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) {
      app.log.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    closing = true;
    app.log.info(`${signal} received: shutting down gracefully`);
    for (const t of timers) clearInterval(t);
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s: exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
