/**
 * How the bench holds out takes. In every split each take is held out exactly once, and a fold's
 * model never sees its held-out speakers (nor, for the sentence split, its held-out sentences), in
 * any condition or augmentation.
 */
export interface BenchTake {
  file: string;
  speaker: string;
  text: string;
  sex: 'm' | 'f';
}

export interface Fold {
  name: string;
  train: (t: BenchTake) => boolean;
  test: (t: BenchTake) => boolean;
}

export interface Split {
  id: string;
  label: string;
  folds(takes: BenchTake[]): Fold[];
}

const uniq = <T>(xs: T[]) => [...new Set(xs)].sort();

export const LOSO: Split = {
  id: 'loso',
  label: 'leave one speaker out (10 folds)',
  folds: (takes) =>
    uniq(takes.map((t) => t.speaker)).map((s) => ({
      name: `speaker ${s}`,
      train: (t) => t.speaker !== s,
      test: (t) => t.speaker === s,
    })),
};

/**
 * New speakers saying new sentences: speakers in 5 pairs (one man, one woman), sentences in 5 pairs
 * (one short, one long); fold (a, b) trains on the other 8 speakers' other 8 sentences and tests on
 * pair a saying pair b (25 folds).
 */
export const SENTENCE: Split = {
  id: 'sentence',
  label: 'unseen speakers and sentences (5 × 5 folds)',
  folds: (takes) => {
    const men = uniq(takes.filter((t) => t.sex === 'm').map((t) => t.speaker));
    const women = uniq(takes.filter((t) => t.sex === 'f').map((t) => t.speaker));
    const texts = uniq(takes.map((t) => t.text));
    const short = texts.filter((t) => t.startsWith('a'));
    const long = texts.filter((t) => t.startsWith('b'));
    const spk = men.map((m, i) => new Set([m, women[i]]));
    const sen = short.map((s, i) => new Set([s, long[i]]));
    const folds: Fold[] = [];
    for (const a of spk)
      for (const b of sen)
        folds.push({
          name: `${[...a].join('+')} × ${[...b].join('+')}`,
          train: (t) => !a.has(t.speaker) && !b.has(t.text),
          test: (t) => a.has(t.speaker) && b.has(t.text),
        });
    return folds;
  },
};

export const SEX: Split = {
  id: 'sex',
  label: 'train on one sex, test on the other (2 folds)',
  folds: () => [
    { name: 'men → women', train: (t) => t.sex === 'm', test: (t) => t.sex === 'f' },
    { name: 'women → men', train: (t) => t.sex === 'f', test: (t) => t.sex === 'm' },
  ],
};

export const SPLITS = [LOSO, SENTENCE, SEX];
