// Child process of tests/server/words-zh-missing.test.ts: the Mandarin check's status and one check of a
// second of silence, printed as JSON.
import { checkWords } from '../../../server/words';
import { closeMandarinPool, mandarinWordCheckStatus } from '../../../server/words/zh';

const status = mandarinWordCheckStatus();
const check = await checkWords({
  samples: new Float32Array(16_000),
  sampleRate: 16_000,
  text: '你好',
  language: 'zh',
});
await closeMandarinPool();
console.log(JSON.stringify({ status, check }));
