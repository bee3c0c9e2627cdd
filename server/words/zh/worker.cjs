// Entry of the Mandarin word check's worker thread (pool.ts). CommonJS and tsx registered before the
// TypeScript module is imported, for the reasons given at the top of server/ai/score-worker.cjs.
let task;
const load = () => {
  task ??= import('tsx/esm/api').then(({ register }) => {
    register();
    return import('./check.ts');
  });
  return task;
};

module.exports = async function runMandarinCheckJob(job) {
  return (await load()).runMandarinCheck(job);
};
