// Entry of each scoring worker thread. The service runs TypeScript through tsx; a worker thread
// started under another runner (vitest, plain node) would not, so the tsx loader is registered here
// before the TypeScript job module is imported. Registering twice (when the parent already runs
// under tsx) is harmless.
//
// No top-level await: piscina loads this file with require() first, and Node 20 aborts the whole
// process ("v8::Module::IsGraphAsync must be used on an instantiated module") when two handlers of
// one module with an async graph are required at once on a fresh worker. The job module is imported
// on the first job instead.
import { register } from 'tsx/esm/api';

register();
let task;
const load = () => {
  task ??= import('./score-task.ts');
  return task;
};

export default async function runScoreJob(job) {
  return (await load()).runScoreJob(job);
}

export async function readReferencesJob(job) {
  return (await load()).readReferencesJob(job);
}
