// Entry of each scoring worker thread. The service runs TypeScript through tsx; a worker thread
// started under another runner (vitest, plain node) would not, so the tsx loader is registered here
// before the TypeScript job module is imported. Registering twice (when the parent already runs
// under tsx) is harmless.
import { register } from 'tsx/esm/api';

register();
const { runScoreJob, readReferencesJob } = await import('./score-task.ts');

export default runScoreJob;
export { readReferencesJob };
