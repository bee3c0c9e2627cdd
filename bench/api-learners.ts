/**
 * The learners `npm run bench:api` adds beside the demo account (bench/api-server.ts) for its save
 * call spread over learners (bench/api.ts): BENCH_LEARNERS (10), one per connection by default.
 */
export const LEARNERS = Number(process.env.BENCH_LEARNERS ?? 10);

export const learnerAccount = (i: number) => ({ account: `bench${i}`, password: 'bench-pass' });
