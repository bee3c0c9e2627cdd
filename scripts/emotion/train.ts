/**
 * npm run train:emotion — trains the emotion model on all of EmoDB and writes
 * src/audio/analysis/emotion-model.json with the feature names, normalisation, provenance and
 * the leave-one-speaker-out figures of the same recipe (protocol.ts). Deterministic: same data
 * and code give the same file.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmotionModelFile } from '../../src/audio/analysis';
import type { ModelHead } from '../../src/audio/analysis/emotion-model-schema';
import { loadSamples } from './dataset';
import { type ConditionResult, DEFAULT_FIT, evaluateLoso, fitModel, formatCondition } from './protocol';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = resolve(root, 'src', 'audio', 'analysis', 'emotion-model.json');

/** 6 significant digits keep the file small without changing any prediction measurably. */
const sig = (v: number) => Number(v.toPrecision(6));

function roundHead(h: ModelHead): ModelHead {
  return { layers: h.layers.map((l) => ({ ...l, weights: l.weights.map(sig), bias: l.bias.map(sig) })) };
}

function summary(r: ConditionResult) {
  return {
    uar: Number(r.uar.toFixed(4)),
    accuracy: Number(r.accuracy.toFixed(4)),
    recall: Object.fromEntries(Object.entries(r.recall).map(([k, v]) => [k, Number(v.toFixed(4))])),
    confusion: r.confusion,
  };
}

const samples = loadSamples();
console.error('leave-one-speaker-out evaluation of the recipe…');
const loso = evaluateLoso(samples, DEFAULT_FIT, true);
console.log(formatCondition('speaker-normalised', loso.normalised));
console.log(formatCondition('cold', loso.cold));
const model: EmotionModelFile = fitModel(samples, DEFAULT_FIT);
model.globalMean = model.globalMean.map(sig);
model.globalStd = model.globalStd.map(sig);
model.cold = roundHead(model.cold);
model.speaker = roundHead(model.speaker);
model.provenance = {
  data: 'EmoDB (Berlin Database of Emotional Speech), Burkhardt et al. 2005, Proc. Interspeech, doi:10.21437/Interspeech.2005-446; CC0-1.0 as published by audEERING',
  copy: '535 utterances, 10 speakers, 22.05 kHz copy cut or zero-padded to 2 s; trailing zero padding trimmed before analysis',
  features: 'analyzeVoice (src/audio/analysis) utterance functionals, see featureNames',
  classifier: `softmax regression heads (hidden layers: ${JSON.stringify(DEFAULT_FIT.train.hidden)}), class-balanced cross-entropy, L2 ${DEFAULT_FIT.train.l2}, Adam lr ${DEFAULT_FIT.train.learningRate}, ${DEFAULT_FIT.train.epochs} full-batch epochs, seed ${DEFAULT_FIT.train.seed}`,
  normalisation:
    'cold head: z-scores with the training-set mean/std; speaker head: z-scores with the speaker running mean/variance shrunk toward the global ones by speakerPrior pseudo-takes; probabilities blended with weight n/(n+blendTakes) for the speaker head',
  arousalValence: 'probability-weighted mean of fixed circumplex positions per class (Russell 1980)',
  script:
    'scripts/emotion/train.ts (npm run train:emotion); evaluation scripts/emotion/eval.ts (npm run eval:emotion)',
};
model.evaluation = {
  protocol: 'leave-one-speaker-out over the 10 EmoDB speakers; see scripts/emotion/protocol.ts',
  normalised: summary(loso.normalised),
  online: summary(loso.online),
  cold: summary(loso.cold),
};
writeFileSync(out, `${JSON.stringify(model)}\n`);
// Same layout as the repository formatter, so a re-run on unchanged data leaves git clean.
execFileSync(resolve(root, 'node_modules', '.bin', 'biome'), ['format', '--write', out], { stdio: 'ignore' });
console.log(`wrote ${out}`);
