import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Code } from '../../src/api/contract';
import { fail, ok } from '../lib/reply';
import { sayTo } from '../lib/words';

/** What a probe adds to its engine's report (engine kind, queue depth…); it throws when the engine is down. */
export type Probe = () => Promise<Record<string, unknown> | undefined>;

export interface EngineReport {
  ok: boolean;
  ms: number;
  /** The error's name or code when the engine did not answer (the full message goes to the log). */
  error?: string;
  [detail: string]: unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Engines this instance depends on register a probe here; /health and /ready run them. */
    healthProbes: Map<string, Probe>;
  }
}

const PROBE_TIMEOUT_MS = 2_000;

async function runProbe(name: string, probe: Probe, app: FastifyInstance): Promise<EngineReport> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const details = await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error(`${name} did not answer`), { code: 'TIMEOUT' })),
          PROBE_TIMEOUT_MS,
        );
      }),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started), ...details };
  } catch (err) {
    app.log.warn({ err, engine: name }, 'health probe failed');
    const e = err as { code?: unknown; name?: string };
    return {
      ok: false,
      ms: Math.round(performance.now() - started),
      error: String(e.code ?? e.name ?? 'Error'),
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /health: this instance, its uptime and every engine it depends on (database, media store,
 * Redis, scoring), each with whether it answered and how fast; 503 when one did not.
 * GET /ready: 200 only when every engine answers and the instance is not shutting down, for the
 * balancer's checks.
 */
export const healthPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('healthProbes', new Map<string, Probe>());
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });

    const check = async () => {
      const names = [...app.healthProbes.keys()];
      const reports = await Promise.all(names.map((n) => runProbe(n, app.healthProbes.get(n) as Probe, app)));
      const engines = Object.fromEntries(names.map((n, i) => [n, reports[i]]));
      const healthy = reports.every((r) => r.ok);
      return { healthy, engines };
    };

    app.get('/health', { config: { rateLimit: false } }, async (request, reply) => {
      const { healthy, engines } = await check();
      const data = {
        instance: app.config.instanceId,
        status: closing ? 'closing' : healthy ? 'ok' : 'degraded',
        uptimeSeconds: Math.round(process.uptime()),
        engines,
      };
      if (healthy) return ok(data);
      return reply.code(503).send(fail(Code.BUSY, sayTo(request, 'health.degraded'), data));
    });

    app.get('/ready', { config: { rateLimit: false } }, async (request, reply) => {
      const { healthy } = closing ? { healthy: false } : await check();
      if (healthy) return ok({ instance: app.config.instanceId, ready: true });
      return reply.code(503).send(
        fail(Code.BUSY, sayTo(request, 'health.notReady'), {
          instance: app.config.instanceId,
          ready: false,
        }),
      );
    });
  },
  { name: 'app-health', dependencies: ['app-config'] },
);
