import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importFilmFolder } from './import';

/** On an empty films table, imports every folder under demo/films (first start of a fresh install). */
export async function importDemoFilmsIfEmpty(app: FastifyInstance, demoDir: string): Promise<number> {
  const any = await app.db.selectFrom('films').select('id').limit(1).executeTakeFirst();
  if (any) return 0;
  const folders = fs.existsSync(demoDir)
    ? fs
        .readdirSync(demoDir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && fs.existsSync(path.join(demoDir, d.name, 'film.json')))
        .map((d) => path.join(demoDir, d.name))
        .sort()
    : [];
  if (folders.length === 0) {
    app.log.info(`No demo films found under ${demoDir}: skipping the demo import`);
    return 0;
  }
  let count = 0;
  for (const folder of folders) {
    try {
      const film = await importFilmFolder({ db: app.db, storage: app.storage, log: app.log }, folder);
      app.log.info(`Imported demo film "${film.id}" from ${folder}`);
      count += 1;
    } catch (err) {
      app.log.error(
        { err: err instanceof Error ? err.message : err },
        `Demo film in ${folder} was not imported`,
      );
    }
  }
  return count;
}
