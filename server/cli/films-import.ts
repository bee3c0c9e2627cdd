import { ConfigError, loadConfig } from '../config';
import { connectDb, migrateToLatest } from '../db/connect';
import { describeBackground, FilmImportError, importFilmFolder } from '../films/import';
import { openStorage } from '../storage/open-storage';

/**
 * npm run films:import -- <folder…>: validates and imports film folders (re-import replaces a film)
 * into the configured database and media store (local disk, or S3 with STORAGE_URL / S3_BUCKET).
 */
async function main(): Promise<number> {
  const folders = process.argv.slice(2);
  if (folders.length === 0) {
    console.error('Usage: npm run films:import -- <film folder> [more folders…]');
    return 2;
  }
  const config = loadConfig(process.env);
  const { db } = connectDb(config);
  const storage = openStorage(config.storage);
  let failed = 0;
  try {
    await migrateToLatest(db, config.databaseSchema);
    for (const folder of folders) {
      try {
        const film = await importFilmFolder({ db, storage }, folder);
        console.log(
          `Imported "${film.id}" (${film.title}): ${film.lines} lines, ${film.questions} questions, ${(film.durationMs / 1000).toFixed(1)} s`,
        );
        console.log(`  ${describeBackground(film.background)}`);
      } catch (err) {
        failed += 1;
        console.error(
          `Not imported: ${err instanceof FilmImportError ? err.message : err instanceof Error ? err.message : err}`,
        );
      }
    }
  } finally {
    await db.destroy();
    storage.close?.();
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  },
);
