/**
 * npm run eval:emotion — leave-one-speaker-out evaluation of the emotion model recipe on clean
 * EmoDB takes (10 folds: train on 9 speakers and their augmentation variants with recipe.ts's
 * settings, test on the 10th). Prints UAR, per-class recall and the confusion matrix with speaker
 * normalisation (history = the speaker's other takes), online (history accumulating take by take),
 * and cold (no history). See protocol.ts for the exact rules; npm run eval:transfer for shifted takes.
 */
import { loadSamples } from './dataset';
import { evaluateLoso, formatCondition } from './protocol';
import { DEFAULT_RECIPE } from './recipe';

const samples = await loadSamples(DEFAULT_RECIPE.variants);
const t0 = Date.now();
const r = evaluateLoso(samples, DEFAULT_RECIPE, true);
console.log(`EmoDB: ${samples.length} utterances, ${new Set(samples.map((s) => s.speaker)).size} speakers`);
console.log(formatCondition("speaker-normalised (stats from the speaker's other takes)", r.normalised));
console.log(formatCondition("online (stats from the speaker's earlier takes, seeded order)", r.online));
console.log(formatCondition('cold (no speaker statistics)', r.cold));
console.log(
  `per-speaker normalised UAR: ${Object.entries(r.perSpeakerUar)
    .map(([s, v]) => `${s} ${(100 * v.normalised).toFixed(0)}%`)
    .join(', ')}`,
);
console.log(
  `mean arousal by true class (normalised): ${Object.entries(r.meanArousalByClass)
    .map(([c, v]) => `${c} ${v.toFixed(2)}`)
    .join(', ')}`,
);
console.error(`evaluated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
