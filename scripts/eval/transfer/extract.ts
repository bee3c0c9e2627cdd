/** Child process of features.ts: extracts and caches one condition (argument: its id). */
import { extractCondition } from './features';

const id = process.argv[2];
if (!id) {
  console.error('usage: extract.ts <condition id>');
  process.exit(2);
}
extractCondition(id);
