import { createUser, DuplicateAccountError } from '../auth/users';
import { ConfigError, loadConfig } from '../config';
import { connectDb, migrateToLatest } from '../db/connect';

/** npm run users:add -- <account> <password> [nickname] */
async function main(): Promise<number> {
  const [account, password, nickname] = process.argv.slice(2);
  if (!account || !password) {
    console.error('Usage: npm run users:add -- <account> <password> [nickname]');
    return 2;
  }
  const config = loadConfig(process.env);
  const { db } = connectDb(config);
  try {
    await migrateToLatest(db, config.databaseSchema);
    const user = await createUser(db, { account, password, nickname });
    console.log(`Created account "${user.account}" (nickname ${user.nickname}, id ${user.id})`);
    return 0;
  } catch (err) {
    if (err instanceof DuplicateAccountError) {
      console.error(`${err.message}: choose another account name`);
      return 1;
    }
    console.error(err instanceof Error ? err.message : err);
    return 1;
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  },
);
