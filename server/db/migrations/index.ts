import type { Migration, MigrationProvider } from 'kysely';
import { initial } from './001-initial';

/**
 * Migrations are listed in code (not read from a folder at run time) so they work the same under
 * tsx, in tests and in a bundled build. Add new ones at the end with the next number.
 */
const MIGRATIONS: Record<string, Migration> = {
  '001-initial': initial,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
