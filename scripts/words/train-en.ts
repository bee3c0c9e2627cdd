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
import type { EnglishMeasures } from '../../server/words/en/verdict';
import { auc, fitLogistic, fitOls, type Linear, pearson, predictLinear, speakerFolds } from './fit';
import { type MeasuredTake, measureSet } from './measure-set';
import { readWordSet, type SetTake } from './word-set';

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

/** A take measured against its own line (the sentence and word models read only this). */
export interface OwnMeasures {
  take: SetTake;
  own: EnglishMeasures;
}

export function wordRows(takes: OwnMeasures[]): WordRow[] {
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

export function fitSentence(train: OwnMeasures[], target: Target, names: readonly string[]): Linear {
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

/** One take against a line: its own whole (right), its own cut short (right, incomplete), another. */
interface LineRow {
  speaker: string;
  /** From the set the cut-short reading is chosen on (so762-train). */
  learner: boolean;
  x: number[];
  /** The same features as if the words on the path were the whole line (coverage 1). */
  prefix: number[];
  coverage: number;
  after: number;
  /** The path's figures (the cut-short model reads them). */
  u: UtteranceFeatures;
  kind: 'own' | 'cut' | 'other';
}

function lineRows(takes: MeasuredTake[], learner: boolean): LineRow[] {
  return takes.flatMap((t) =>
    (['own', 'cut', 'other'] as const)
      .filter((kind) => !t.measures[kind].failed)
      .map((kind) => {
        const u = t.measures[kind].utterance;
        return {
          speaker: t.take.speaker,
          learner,
          x: row(u, LINE_FEATURES),
          prefix: row({ ...u, coverage: 1 }, LINE_FEATURES),
          coverage: u.coverage,
          after: u.after,
          u,
          kind,
        };
      }),
  );
}

/** The value below which FALSE_OTHER of the right (whole) lines fall. */
function lineThreshold(values: number[], rows: LineRow[]): number {
  const right = values.filter((_, i) => rows[i].kind === 'own').sort((a, b) => a - b);
  return right[Math.floor(right.length * FALSE_OTHER)] ?? 0;
}

/** Candidates for the cut-short reading's `after` (server/words/en/verdict.ts readsCutShort). */
const CUT_AFTER = [0.05, 0.1, 0.15, 0.2, 0.3];
/** What the cut-short model reads: the path's figures and `prefix` (the line value at coverage 1). */
export const CUT_FEATURES = [
  'prefix',
  'gl',
  'glMin',
  'glLow',
  'match',
  'gs',
  'coverage',
  'after',
  'tailGop',
  'silGop',
  'rate',
] as const;
/** The reading may let this many more wrong lines through with half their words or more. */
const CUT_EXTRA_WRONG = 0.02;

/**
 * The cut-short reading: for each candidate `after`, a logistic model of the learners' cut takes
 * against their wrong lines among the paths that end early with at most `after` of the speech after
 * them, and the lowest cut on its out-of-fold values at which wrong lines read as this line with at
 * least half their words (the ones the overall score could pass) grow by at most CUT_EXTRA_WRONG;
 * the `after` that then calls the fewest cut takes another line. On the learners' rows only.
 */
function chooseCutShort(
  rows: LineRow[],
  value: number[],
  prefix: number[],
  threshold: number,
): { reading: EnglishModel['line']['cutShort']; cutOther: number; wrongHalf: number } {
  const idx = rows.map((_, i) => i).filter((i) => rows[i].learner);
  const cuts = idx.filter((i) => rows[i].kind === 'cut');
  const wrong = idx.filter((i) => rows[i].kind === 'other');
  const features = (i: number) => row({ ...rows[i].u, prefix: prefix[i] }, CUT_FEATURES);
  const rates = (rescued: Set<number>) => {
    const other = (i: number) => value[i] < threshold && !rescued.has(i);
    return {
      cutOther: cuts.filter(other).length / cuts.length,
      wrongHalf: wrong.filter((i) => !other(i) && rows[i].coverage >= 0.5).length / wrong.length,
    };
  };
  const base = rates(new Set());
  let best: ReturnType<typeof chooseCutShort> | null = null;
  for (const after of CUT_AFTER) {
    const cand = [...cuts, ...wrong].filter((i) => rows[i].coverage < 1 && rows[i].after <= after);
    const fitCut = (train: number[]) =>
      fitLogistic(
        train.map(features),
        train.map((i) => (rows[i].kind === 'cut' ? 1 : 0)),
      );
    const oof = crossPredict(
      cand,
      (i) => rows[i].speaker,
      (train) => {
        const m = fitCut(train);
        return (i) => predictLinear(m, features(i));
      },
    );
    // Lower the cut while the wrong lines it lets through stay within the bound (they only grow).
    let cut = Number.POSITIVE_INFINITY;
    let r = base;
    for (const t of [...new Set(oof)].sort((a, b) => b - a)) {
      const next = rates(new Set(cand.filter((_, k) => oof[k] >= t)));
      if (next.wrongHalf > base.wrongHalf + CUT_EXTRA_WRONG) break;
      cut = t;
      r = next;
    }
    if (!best || r.cutOther < best.cutOther) {
      const m = fitCut(cand);
      best = {
        reading: {
          features: [...CUT_FEATURES],
          weights: m.weights.map(sig),
          intercept: sig(m.intercept),
          after,
          // No cut within the bound: a threshold no take reaches (JSON holds no infinity).
          threshold: Number.isFinite(cut) ? sig(cut) : Number.MAX_VALUE,
        },
        ...r,
      };
    }
  }
  if (!best) throw new Error('no cut-short candidates');
  console.log(
    `cut-short reading: after ≤ ${best.reading.after}: cut takes called another line ${(100 * base.cutOther).toFixed(1)} % → ${(100 * best.cutOther).toFixed(1)} %, wrong lines with half their words read as the line ${(100 * base.wrongHalf).toFixed(1)} % → ${(100 * best.wrongHalf).toFixed(1)} %`,
  );
  return best;
}

/**
 * The line model (whole takes: own line against another, learners and native speakers), its threshold
 * and the cut-short reading, each chosen on speaker-grouped out-of-fold values; figures go to `figures`.
 */
export function fitLine(
  so762: MeasuredTake[],
  native: MeasuredTake[],
  figures: Record<string, number | string>,
): { model: Linear; threshold: number; cutShort: EnglishModel['line']['cutShort'] } {
  const lines = [...lineRows(so762, true), ...lineRows(native, false)];
  // Fitted on whole takes, own line against another; cut takes are only measured (chooseCutShort).
  const lineFit = (train: LineRow[]) => {
    const whole = train.filter((l) => l.kind !== 'cut');
    return fitLogistic(
      whole.map((l) => l.x),
      whole.map((l) => (l.kind === 'own' ? 1 : 0)),
    );
  };
  const outOfFold = (features: (l: LineRow) => number[]) =>
    crossPredict(
      lines,
      (l) => l.speaker,
      (train) => {
        const m = lineFit(train);
        return (l) => predictLinear(m, features(l));
      },
    );
  const linePred = outOfFold((l) => l.x);
  const prefixPred = outOfFold((l) => l.prefix);
  const threshold = lineThreshold(linePred, lines);
  const of = (kind: LineRow['kind']) => linePred.filter((_, i) => lines[i].kind === kind);
  figures['right-vs-wrong line AUC (CV)'] = sig(auc(of('own'), of('other')));
  figures['wrong lines accepted (CV)'] = sig(
    of('other').filter((v) => v >= threshold).length / of('other').length,
  );
  for (const frr of [0.01, 0.02, 0.03, 0.05, 0.08]) {
    const right = of('own').sort((a, b) => a - b);
    const t = right[Math.floor(right.length * frr)];
    const far = of('other').filter((v) => v >= t).length / of('other').length;
    console.log(
      `line threshold calling ${100 * frr} % of right lines another line: ${(100 * far).toFixed(1)} % of wrong lines accepted`,
    );
  }
  const cutShort = chooseCutShort(lines, linePred, prefixPred, threshold);
  figures['so762 cut takes called another line (CV)'] = sig(cutShort.cutOther);
  figures['so762 wrong lines read as the line with half their words (CV)'] = sig(cutShort.wrongHalf);
  return { model: lineFit(lines), threshold, cutShort: cutShort.reading };
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
  const labelled: OwnMeasures[] = so762
    .filter((t) => t.take.labels && !t.measures.own.failed)
    .map((t) => ({ take: t.take, own: t.measures.own }));
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

  const line = fitLine(so762, native, figures);
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
      weights: line.model.weights.map(sig),
      intercept: sig(line.model.intercept),
      threshold: sig(line.threshold),
      cutShort: line.cutShort,
    },
  };
  const out = path.join(root, 'server', 'words', 'en', 'model.json');
  writeFileSync(out, `${JSON.stringify(model, null, 2)}\n`);
  console.log(`wrote ${path.relative(root, out)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
