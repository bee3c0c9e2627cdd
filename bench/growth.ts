/**
 * `npx tsx bench/growth.ts`: what one scored take costs in PostgreSQL and in the media store, for
 * the capacity arithmetic of docs/deploy.md. Scores the ten EmoDB fixture takes through the real
 * upload route of a test server (PostgreSQL at TEST_DATABASE_URL, a schema of its own), then reads
 * the sizes: the row as stored (pg_column_size), the table and its indexes on disk, the wav.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { DEMO_ACCOUNT } from '../server/auth/users';
import { postTake, seedAiFilm } from '../tests/server/ai-support';
import { startTestServer } from '../tests/support/server';

const FIXTURES = path.resolve(import.meta.dirname, '../tests/fixtures/emodb');
const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.wav'));

const server = await startTestServer({ engine: 'postgres', seedDemo: true });
try {
  await seedAiFilm(server.app);
  const res = await fetch(`${server.url}/producer/site_products/login_pwd`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: DEMO_ACCOUNT.account, password: DEMO_ACCOUNT.password }),
  });
  const { token } = ((await res.json()) as { data: { token: string } }).data;
  let wavBytes = 0;
  let seconds = 0;
  for (const [i, file] of files.entries()) {
    const wav = fs.readFileSync(path.join(FIXTURES, file));
    const answer = await postTake(server.url, token, { file: wav, takeId: `growth-take-${i}` });
    if (answer.status !== 200) throw new Error(`${file}: ${JSON.stringify(answer.body)}`);
    wavBytes += wav.length;
    seconds += (wav.length - 44) / 32_000;
  }
  const { rows } = await sql<{ row_bytes: string; result_chars: string; n: string }>`
    select avg(pg_column_size(t.*))::int as row_bytes, avg(length(t.result))::int as result_chars, count(*) as n
    from takes t`.execute(server.app.db);
  const [{ row_bytes, result_chars, n }] = rows;
  const { rows: disk } = await sql<{ table_bytes: string; index_bytes: string }>`
    select pg_table_size('takes') as table_bytes, pg_indexes_size('takes') as index_bytes`.execute(
    server.app.db,
  );
  const stats = await sql<{
    bytes: string;
  }>`select avg(pg_column_size(s.*))::int as bytes from speaker_stats s`.execute(server.app.db);
  const perTakeDisk = (Number(disk[0].table_bytes) + Number(disk[0].index_bytes)) / Number(n);
  console.log(
    `one scored take, ${n} EmoDB fixture takes (mean ${(seconds / Number(n)).toFixed(2)} s of 16 kHz mono 16-bit):`,
  );
  console.log(
    `  takes row as stored (pg_column_size): ${row_bytes} B  (result JSON ${result_chars} characters, TOAST-compressed)`,
  );
  console.log(
    `  takes table + indexes on disk / take: ${Math.round(perTakeDisk)} B  (small table: pages not full; an upper bound)`,
  );
  console.log(
    `  wav in the media store:               ${Math.round(wavBytes / Number(n))} B  (${(wavBytes / seconds / 1000).toFixed(1)} kB per second of take)`,
  );
  console.log(`  speaker_stats row (one per learner):  ${stats.rows[0].bytes} B`);
} finally {
  await server.close();
}
