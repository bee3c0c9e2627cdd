/**
 * npm run train:words — fits the English word check's models (server/words/en/model.json) on
 * speechocean762's 600 training utterances in ../shared/datasets/so762-train (Zhang et al. 2021,
 * Apache-2.0, see its SOURCE.md) and, for "is this the line", also on the native English of
 * ../shared/datasets/line-check/en. Features and thresholds are chosen by speaker-grouped 5-fold
 * cross-validation; the figures are printed and kept in the file's provenance. Deterministic.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UtteranceFeatures, WordFeatures } from '../../server/words/en/features';
import { WORD_FEATURES } from '../../server/words/en/features';
import type { EnglishModel } from '../../server/words/en/model';
import { auc, fitLogistic, fitOls, type Linear, pearson, predictLinear, speakerFolds } from './fit';
import { type MeasuredTake, measureSet } from './measure-set';
import { readWordSet } from './word-set';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = path.resolve(root, '..', 'shared', 'datasets');
const cacheDir = path.join(root, 'scripts', '.cache');
const FOLDS = 5;
const sig = (v: number) => Number(v.toPrecision(6));

/** Candidate sentence feature sets (docs/words.md): GOP with the loop, the same plus coverage, no loop. */
export const SENTENCE_SETS: Record<string, (keyof UtteranceFeatures)[]> = {
  loop: ['gl', 'glMin', 'glLow', 'rate', 'pause', 'npause', 'silGop'],
  loopAll: ['gl', 'glMin', 'glLow', 'rate', 'pause', 'npause', 'silGop', 'gs', 'match', 'coverage'],
  single: ['gs', 'rate', 'pause', 'npause', 'coverage'],
};
// Coverage separates most wrong lines (the grammar gives up early); a take cut short keeps a good fit
// over the words it covers, which the other features see (bench:words measures both).
export const LINE_FEATURES: (keyof UtteranceFeatures)[] = ['match', 'gl', 'glMin', 'gs', 'coverage'];
/** Share of good words (experts' mean ≥ 8) the word flag may mark off. */
export const FALSE_FLAGS = 0.05;
/** Share of right lines (native and learners) the line verdict may call another line. */
export const FALSE_OTHER = 0.03;

const row = (x: Record<string, number>, names: readonly string[]) => names.map((n) => x[n]);

/** Out-of-fold predictions of a fitter over rows grouped by speaker. */
export function crossPredict<T>(
  items: T[],
  speaker: (t: T) => string,
  fitFold: (train: T[]) => (t: T) => number,
): number[] {
  const folds = speakerFolds(items.map(speaker), FOLDS);
  const out = new Array<number>(items.length).fill(Number.NaN);
  for (let f = 0; f < FOLDS; f++) {
    const predictor = fitFold(items.filter((t) => folds.get(speaker(t)) !== f));
    items.forEach((t, i) => {
      if (folds.get(speaker(t)) === f) out[i] = predictor(t);
    });
  }
  return out;
}

type Target = 'accuracy' | 'fluency' | 'total';
interface WordRow {
  speaker: string;
  features: WordFeatures;
  accuracy: number;
}

export function wordRows(takes: MeasuredTake[]): WordRow[] {
  const rows: WordRow[] = [];
  for (const t of takes) {
    const labels = t.take.wordAccuracy;
    if (!labels) continue;
    for (const w of t.own.words) {
      if (w.word < labels.length)
        rows.push({ speaker: t.take.speaker, features: w.features, accuracy: labels[w.word] });
    }
  }
  return rows;
}

export function fitSentence(train: MeasuredTake[], target: Target, names: readonly string[]): Linear {
  return fitOls(
    train.map((t) => row(t.own.utterance, names)),
    train.map((t) => t.take.labels?.[target] ?? 0),
  );
}

export function fitWord(train: WordRow[]): Linear {
  return fitOls(
    train.map((w) => row(w.features, WORD_FEATURES)),
    train.map((w) => w.accuracy),
  );
}

/** The cut on predicted word accuracy that flags FALSE_FLAGS of the good words. */
export function offThreshold(predicted: number[], labels: number[]): number {
  const good = predicted.filter((_, i) => labels[i] >= 8).sort((a, b) => a - b);
  return good[Math.floor(good.length * FALSE_FLAGS)] ?? 0;
}

interface LineRow {
  speaker: string;
  x: number[];
  own: boolean;
}

function lineRows(takes: MeasuredTake[]): LineRow[] {
  return takes.flatMap((t) => [
    ...(t.own.failed ? [] : [{ speaker: t.take.speaker, x: row(t.own.utterance, LINE_FEATURES), own: true }]),
    ...(t.other.failed
      ? []
      : [{ speaker: t.take.speaker, x: row(t.other.utterance, LINE_FEATURES), own: false }]),
  ]);
}

/** The value below which FALSE_OTHER of the right lines fall. */
function lineThreshold(values: number[], own: boolean[]): number {
  const right = values.filter((_, i) => own[i]).sort((a, b) => a - b);
  return right[Math.floor(right.length * FALSE_OTHER)] ?? 0;
}

async function main() {
  const so762 = await measureSet(
    'so762-train',
    readWordSet(path.join(shared, 'so762-train'), 'en'),
    cacheDir,
  );
  const native = await measureSet(
    'line-check-en',
    readWordSet(path.join(shared, 'line-check', 'en'), 'en'),
    cacheDir,
  );
  const labelled = so762.filter((t) => t.take.labels && !t.own.failed);
  const figures: Record<string, number | string> = {};

  const sentence = {} as EnglishModel['sentence'];
  for (const target of ['accuracy', 'fluency', 'total'] as const) {
    let best = { name: '', r: Number.NEGATIVE_INFINITY };
    for (const [name, names] of Object.entries(SENTENCE_SETS)) {
      const pred = crossPredict(
        labelled,
        (t) => t.take.speaker,
        (train) => {
          const m = fitSentence(train, target, names);
          return (t) => predictLinear(m, row(t.own.utterance, names));
        },
      );
      const r = pearson(
        pred,
        labelled.map((t) => t.take.labels?.[target] ?? 0),
      );
      console.log(`sentence ${target} ${name}: CV PCC ${r.toFixed(3)}`);
      if (r > best.r) best = { name, r };
    }
    const names = SENTENCE_SETS[best.name];
    const m = fitSentence(labelled, target, names);
    sentence[target] = { features: names, weights: m.weights.map(sig), intercept: sig(m.intercept) };
    figures[`sentence ${target} PCC (CV)`] = sig(best.r);
    figures[`sentence ${target} features`] = best.name;
  }

  const words = wordRows(labelled);
  const wordPred = crossPredict(
    words,
    (w) => w.speaker,
    (train) => {
      const m = fitWord(train);
      return (w) => predictLinear(m, row(w.features, WORD_FEATURES));
    },
  );
  const wordLabels = words.map((w) => w.accuracy);
  const wordModel = fitWord(words);
  const offBelow = offThreshold(wordPred, wordLabels);
  figures['word accuracy PCC (CV)'] = sig(pearson(wordPred, wordLabels));
  figures['bad-word AUC (CV)'] = sig(
    auc(
      wordPred.filter((_, i) => wordLabels[i] < 6).map((v) => -v),
      wordPred.filter((_, i) => wordLabels[i] >= 8).map((v) => -v),
    ),
  );
  const bad = wordPred.filter((_, i) => wordLabels[i] < 6);
  figures['bad words flagged (CV)'] = sig(bad.filter((v) => v < offBelow).length / bad.length);
  console.log(`words: ${words.length}`, figures);

  const lines = lineRows([...so762, ...native]);
  const lineFit = (train: LineRow[]) =>
    fitLogistic(
      train.map((l) => l.x),
      train.map((l) => (l.own ? 1 : 0)),
    );
  const linePred = crossPredict(
    lines,
    (l) => l.speaker,
    (train) => {
      const m = lineFit(train);
      return (l) => predictLinear(m, l.x);
    },
  );
  const own = lines.map((l) => l.own);
  const threshold = lineThreshold(linePred, own);
  figures['right-vs-wrong line AUC (CV)'] = sig(
    auc(
      linePred.filter((_, i) => own[i]),
      linePred.filter((_, i) => !own[i]),
    ),
  );
  figures['wrong lines accepted (CV)'] = sig(
    linePred.filter((v, i) => !own[i] && v >= threshold).length / own.filter((o) => !o).length,
  );
  for (const frr of [0.01, 0.02, 0.03, 0.05, 0.08]) {
    const right = linePred.filter((_, i) => own[i]).sort((a, b) => a - b);
    const t = right[Math.floor(right.length * frr)];
    const far = linePred.filter((v, i) => !own[i] && v >= t).length / own.filter((o) => !o).length;
    console.log(
      `line threshold calling ${100 * frr} % of right lines another line: ${(100 * far).toFixed(1)} % of wrong lines accepted`,
    );
  }
  const lineModel = lineFit(lines);
  console.log(figures);

  const model: EnglishModel = {
    provenance: {
      trainedBy: 'npm run train:words (scripts/words/train-en.ts)',
      data: 'speechocean762 training split, 600 utterances by 125 speakers (../shared/datasets/so762-train, Apache-2.0); line model also on ../shared/datasets/line-check/en',
      engine: 'pocketsphinx_batch, Debian pocketsphinx-en-us model',
      folds: `${FOLDS} speaker-grouped folds`,
      utterances: labelled.length,
      words: words.length,
      figures,
    },
    sentence,
    word: {
      features: [...WORD_FEATURES],
      weights: wordModel.weights.map(sig),
      intercept: sig(wordModel.intercept),
    },
    offBelow: sig(offBelow),
    line: {
      features: LINE_FEATURES,
      weights: lineModel.weights.map(sig),
      intercept: sig(lineModel.intercept),
      threshold: sig(threshold),
    },
  };
  const out = path.join(root, 'server', 'words', 'en', 'model.json');
  writeFileSync(out, `${JSON.stringify(model, null, 2)}\n`);
  console.log(`wrote ${path.relative(root, out)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
