/**
 * npm run train:emotion — trains the emotion model on all of EmoDB (clean takes and their
 * augmentation variants) and writes src/audio/analysis/emotion-model.json with the feature names,
 * normalisation, heads, temperatures, the label threshold, provenance and the leave-one-speaker-out
 * figures of the same recipe (protocol.ts). Deterministic: same data and code give the same file.
 * `npm run eval:transfer -- --record` adds the transfer bench's figures afterwards.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmotionEstimate, EmotionModelFile } from '../../src/audio/analysis';
import type { HeadSet, ModelHead } from '../../src/audio/analysis/emotion-model-schema';
import { loadSamples } from './dataset';
import { type ConditionResult, evaluateLoso, formatCondition } from './protocol';
import { describeNaming, heldOutReadings, namingRule } from './naming';
import { DEFAULT_RECIPE, fitRecipe } from './recipe';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = resolve(root, 'src', 'audio', 'analysis', 'emotion-model.json');

/**
 * Precision the category label must reach on held-out EmoDB speakers to be named to a learner. Set
 * high on purpose: on other languages the category is right far less often at the same confidence.
 */
export const LABEL_PRECISION = 0.95;

/** 6 significant digits keep the file small without changing any prediction measurably. */
const sig = (v: number) => Number(v.toPrecision(6));

function roundHead(h: ModelHead): ModelHead {
  return { layers: h.layers.map((l) => ({ ...l, weights: l.weights.map(sig), bias: l.bias.map(sig) })) };
}

function roundSet(s: HeadSet): HeadSet {
  return {
    ...s,
    category: roundHead(s.category),
    arousal: roundHead(s.arousal),
    valence: roundHead(s.valence),
    temperature: sig(s.temperature),
  };
}

function summary(r: ConditionResult) {
  return {
    uar: Number(r.uar.toFixed(4)),
    accuracy: Number(r.accuracy.toFixed(4)),
    recall: Object.fromEntries(Object.entries(r.recall).map(([k, v]) => [k, Number(v.toFixed(4))])),
    confusion: r.confusion,
  };
}

/**
 * Lowest top-class probability at which the held-out readings at or above it are right at least
 * LABEL_PRECISION of the time (and at least 20 of them): the label threshold.
 */
export function labelThreshold(rows: Array<{ emotion: string; reading: EmotionEstimate }>): number {
  const sorted = rows
    .map((r) => ({ p: r.reading.probabilities[r.reading.detected], ok: r.reading.detected === r.emotion }))
    .sort((a, b) => b.p - a.p);
  let correct = 0;
  let best = 1;
  sorted.forEach((r, i) => {
    correct += r.ok ? 1 : 0;
    if (i + 1 >= 20 && correct / (i + 1) >= LABEL_PRECISION) best = r.p;
  });
  return best;
}

const samples = await loadSamples(DEFAULT_RECIPE.variants);
console.error('leave-one-speaker-out evaluation of the recipe…');
const folds = new Map<string, EmotionModelFile>();
const loso = evaluateLoso(samples, DEFAULT_RECIPE, true, folds);
const held = heldOutReadings(samples, folds, DEFAULT_RECIPE.variants);
console.log(`naming thresholds on held-out speakers (worst of clean and shifted):\n${describeNaming(held)}`);
console.log(formatCondition('speaker-normalised', loso.normalised));
console.log(formatCondition('cold', loso.cold));
const model: EmotionModelFile = fitRecipe(samples, DEFAULT_RECIPE);
model.globalMean = model.globalMean.map(sig);
model.globalStd = model.globalStd.map(sig);
model.cold = roundSet(model.cold);
model.speaker = roundSet(model.speaker);
model.labelThreshold = sig(labelThreshold(loso.coldReadings));
model.naming = namingRule(held);
model.arousalGoal = Object.fromEntries(
  Object.entries(model.arousalGoal).map(([k, v]) => [k, sig(v)]),
) as EmotionModelFile['arousalGoal'];
const t = DEFAULT_RECIPE.train;
model.provenance = {
  data: 'EmoDB (Berlin Database of Emotional Speech), Burkhardt et al. 2005, Proc. Interspeech, doi:10.21437/Interspeech.2005-446; CC0-1.0 as published by audEERING',
  copy: '535 utterances, 10 speakers, 22.05 kHz copy cut or zero-padded to 2 s and peak-normalised; trailing zero padding trimmed before analysis',
  augmentation: `${DEFAULT_RECIPE.variants} shifted copies of every training take (pitch, vocal tract, tempo, microphone drawn per speaker; noise and room per take; never a codec): scripts/eval/transfer/conditions.ts augment`,
  features: `analyzeVoice (src/audio/analysis) utterance functionals; cold heads read ${model.cold.inputs.length} (no absolute pitch level, formant frequencies or MFCC means), speaker heads ${model.speaker.inputs.length}`,
  classifier: `per head set: softmax regression over the 7 classes, logistic arousal and valence heads; class-balanced cross-entropy, L2 ${t.l2}, Adam lr ${t.learningRate}, ${t.epochs} full-batch epochs, seed ${t.seed}`,
  calibration: `category temperature fitted on ${DEFAULT_RECIPE.calibrationGroups} inner folds of held-out speakers (clean and shifted takes); labelThreshold = lowest top probability with ≥ ${LABEL_PRECISION * 100} % precision on leave-one-speaker-out cold readings; arousalGoal = mean held-out arousal reading per class; naming: scripts/emotion/naming.ts (per class and reading, the lowest threshold with ≥ 95 % precision in the worst of clean and shifted held-out takes; classes under 85 % precision out of domain withheld; no percentage shown unless calibrated out of domain)`,
  normalisation:
    'cold heads: z-scores with the training-set mean/std; speaker heads: z-scores with the speaker running mean/variance shrunk toward the global ones by speakerPrior pseudo-takes; outputs blended with weight n/(n+blendTakes) for the speaker heads',
  script:
    'scripts/emotion/train.ts (npm run train:emotion); evaluation scripts/emotion/eval.ts (npm run eval:emotion), scripts/eval/transfer (npm run eval:transfer), scripts/eval/match.ts (npm run eval:match)',
};
// The transfer bench's figures (`npm run eval:transfer -- --record`) take far longer than training;
// they are kept from the file being replaced, and `recordedWith` says which weights they measured.
const previousFile = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as EmotionModelFile) : null;
const transfer = previousFile?.evaluation?.transfer as Record<string, unknown> | undefined;
const sameWeights =
  previousFile !== null &&
  JSON.stringify([previousFile.cold, previousFile.speaker]) === JSON.stringify([model.cold, model.speaker]);
model.evaluation = {
  protocol: 'leave-one-speaker-out over the 10 EmoDB speakers, clean takes; see scripts/emotion/protocol.ts',
  normalised: summary(loso.normalised),
  online: summary(loso.online),
  cold: summary(loso.cold),
  ...(transfer && sameWeights ? { transfer } : {}),
};
writeFileSync(out, `${JSON.stringify(model)}\n`);
// Same layout as the repository formatter, so a re-run on unchanged data leaves git clean.
execFileSync(resolve(root, 'node_modules', '.bin', 'biome'), ['format', '--write', out], { stdio: 'ignore' });
console.log(`wrote ${out} (label threshold ${model.labelThreshold})`);
