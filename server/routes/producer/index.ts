import type { FastifyInstance } from 'fastify';
import { ok } from '../../lib/reply';
import { accountRoutes } from './account';
import { filmRoutes } from './films';
import { h5QrRoutes } from './h5-qr';
import { h5ReportRoutes } from './h5-report';
import { mediaRoutes } from './media';
import { reportRoutes } from './reports';
import { runRoutes } from './runs';

/** Every call of docs/api.md under /producer, plus the run calls, media and the two H5 pages. */
export async function producerRoutes(app: FastifyInstance): Promise<void> {
  app.get('/health', { config: { rateLimit: false } }, async () => ok({ ok: true, engine: app.dbEngine }));
  await app.register(accountRoutes);
  await app.register(filmRoutes('prpo'));
  await app.register(filmRoutes('prpt'));
  await app.register(reportRoutes('prpo'));
  await app.register(reportRoutes('prpt'));
  await app.register(runRoutes('prpo'));
  await app.register(runRoutes('prpt'));
  await app.register(mediaRoutes);
  await app.register(h5QrRoutes);
  await app.register(h5ReportRoutes);
}
