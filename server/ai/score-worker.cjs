// Entry of each scoring worker thread. The service runs TypeScript through tsx; a worker thread
// started under another runner (vitest, plain node) would not, so the tsx loader is registered here
// before the TypeScript job module is imported. Registering twice (when the parent already runs
// under tsx) is harmless.
//
// CommonJS on purpose: piscina loads its worker file with require() first. Were this an ES module,
// that require() would load it as one (require(esm)), which Node 20 and 22 can abort the whole
// process on ("v8::Module::IsGraphAsync must be used on an instantiated module"). A CommonJS entry
// never takes that path on any Node version; the job module is imported on the first job.
// Both are loaded with import(), never require(): tsx's CommonJS build of this API cannot register.
let task;
const load = () => {
  task ??= import('tsx/esm/api').then(({ register }) => {
    register();
    return import('./score-task.ts');
  });
  return task;
};

module.exports = async function runScoreJob(job) {
  return (await load()).runScoreJob(job);
};

module.exports.readReferencesJob = async function readReferencesJob(job) {
  return (await load()).readReferencesJob(job);
};

module.exports.warmupJob = async function warmupJob(job) {
  return (await load()).warmupJob(job);
};

module.exports.wordSamplesJob = async function wordSamplesJob(job) {
  return (await load()).wordSamplesJob(job);
};
