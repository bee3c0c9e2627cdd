/**
 * `npm run eval:transfer` — the transfer bench: how the emotion model holds up for voices, words and
 * microphones it has not heard, simulated on EmoDB (../shared/datasets/emodb or EMODB_DIR).
 *
 * Held-out takes go through each condition of conditions.ts (pitch ±4 st, vocal tract ×1.15/×0.87,
 * both together, tempo ±15 %, a phone microphone, pink noise at 20 and 10 dB SNR, a small room,
 * Opus at 16 kbit/s); training takes only through the augmentation (never the codec). Splits:
 * leave one speaker out, unseen speakers and sentences, one sex to the other. Both recipes are
 * refitted per fold, so no figure comes from a model that heard the held-out speaker in any form.
 *
 * Per condition, previous → shipped: 4-class (anger/happiness/sadness/neutral) and 7-class UAR cold
 * and speaker-normalised, arousal AUC (anger, happiness, fear vs sadness, neutral) cold and
 * normalised, match AUC (same sentence, another speaker; target annotated or the actor's clean take,
 * learner cold), expected calibration error, and how often the top class differs from the clean take's.
 *
 * Then the out-of-domain table on nemo-dev (scripts/eval/nemo: Polish speakers and a language the
 * models never heard; evaluation only), v1 / v2 / shipped, and the first take's reading on EmoDB,
 * nemo-dev and neutral read speech (scripts/eval/reading.ts).
 *
 * Options: --splits loso,sentence,sex (default all); --conditions a,b (default all);
 * --only nemo (just the nemo-dev table, about 15 s once its features are cached);
 * --only reading (just the reading of energy and its goals: scripts/eval/reading.ts);
 * --only reading-options (the first take's typical-voice options compared: the same file);
 * --record (write the EmoDB summary into src/audio/analysis/emotion-model.json's evaluation.transfer;
 * nemo-dev figures are never written into the repository).
 * Features are cached under scripts/.cache/transfer (see features.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emoDbDir, loadEmoDbIndex } from '../../lib/emodb';
import { DEFAULT_RECIPE } from '../../emotion/recipe';
import {
  type FeatureTable,
  FIGURE_LABELS,
  type Figures,
  figures,
  type Recipe,
  readSplit,
  type Take,
} from './bench';
import { nemoReport } from '../nemo/report';
import { readingOptions, readingReport } from '../reading';
import { BENCH_CONDITIONS } from './conditions';
import { ensureConditions, loadCondition } from './features';
import { previousRecipe, shippedRecipe } from './recipes';
import { SPLITS } from './splits';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function arg(name: string): string | null {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? '') : null;
}

const HIGHER_IS_BETTER: Record<keyof Figures, boolean> = {
  uar4Cold: true,
  uar7Cold: true,
  uar4Norm: true,
  uar7Norm: true,
  arousalCold: true,
  arousalNorm: true,
  matchAnnotated: true,
  matchActor: true,
  ece: false,
  flip: false,
};
const KEYS = Object.keys(FIGURE_LABELS) as Array<keyof Figures>;
const SHORT: Record<keyof Figures, string> = {
  uar4Cold: 'UAR4',
  uar7Cold: 'UAR7',
  uar4Norm: 'UAR4 n',
  uar7Norm: 'UAR7 n',
  arousalCold: 'ar AUC',
  arousalNorm: 'ar AUC n',
  matchAnnotated: 'match a',
  matchActor: 'match act',
  ece: 'ECE',
  flip: 'flip',
};

const fmt = (k: keyof Figures, v: number) =>
  k.startsWith('uar') || k === 'ece' || k === 'flip' ? (100 * v).toFixed(1) : v.toFixed(3);

function mean(rows: Figures[]): Figures {
  return Object.fromEntries(
    KEYS.map((k) => [k, rows.reduce((s, r) => s + r[k], 0) / rows.length]),
  ) as unknown as Figures;
}

async function main(): Promise<void> {
  if (arg('only') === 'nemo') {
    nemoReport();
    return;
  }
  if (arg('only') === 'reading') {
    await readingReport();
    return;
  }
  if (arg('only') === 'reading-options') {
    await readingOptions();
    return;
  }
  if (!existsSync(join(emoDbDir(), 'labels.csv'))) {
    console.log(`eval:transfer SKIPPED: EmoDB is absent (looked in ${emoDbDir()}); set EMODB_DIR.`);
    return;
  }
  const started = Date.now();
  const splitIds = (arg('splits') ?? 'loso,sentence,sex').split(',');
  const condIds = arg('conditions')?.split(',') ?? BENCH_CONDITIONS.map((c) => c.id);
  if (!condIds.includes('clean')) condIds.unshift('clean');
  const variants = DEFAULT_RECIPE.variants;
  const augIds = Array.from({ length: variants }, (_, k) => `aug${k + 1}`);
  await ensureConditions([...condIds, ...augIds]);
  const features: FeatureTable = new Map([...condIds, ...augIds].map((id) => [id, loadCondition(id)]));
  const takes: Take[] = loadEmoDbIndex().map((e) => ({
    file: e.file,
    speaker: e.speaker,
    text: e.text,
    sex: e.sex,
    emotion: e.emotion,
  }));
  const recipes: Recipe[] = [previousRecipe, shippedRecipe()];
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const summary: Record<string, unknown> = {};
  console.log(
    'eval:transfer — EmoDB, held-out speakers through simulated shifts; each cell previous → shipped',
  );
  console.log(`columns: ${KEYS.map((k) => `${SHORT[k]} = ${FIGURE_LABELS[k]}`).join('; ')}`);
  console.log('UAR, ECE and flip in %, AUC 0–1; ECE and flip: lower is better.');
  for (const split of SPLITS.filter((s) => splitIds.includes(s.id))) {
    const results = recipes.map((r) => {
      const readings = readSplit(r, split, takes, features, condIds, variants, log);
      const clean = readings.get('clean') as NonNullable<ReturnType<typeof readings.get>>;
      return new Map(condIds.map((c) => [c, figures(takes, readings.get(c) as typeof clean, clean)]));
    });
    console.log('');
    console.log(`${split.label}`);
    const head = `${'condition'.padEnd(36)}${KEYS.map((k) => SHORT[k].padStart(16)).join('')}`;
    console.log(head);
    const row = (label: string, a: Figures, b: Figures) =>
      console.log(
        `${label.padEnd(36)}${KEYS.map((k) => {
          const better = HIGHER_IS_BETTER[k] ? b[k] > a[k] : b[k] < a[k];
          return `${fmt(k, a[k])}→${fmt(k, b[k])}${better ? '+' : ' '}`.padStart(16);
        }).join('')}`,
      );
    for (const c of condIds) {
      const label = BENCH_CONDITIONS.find((x) => x.id === c)?.label ?? c;
      row(label, results[0].get(c) as Figures, results[1].get(c) as Figures);
    }
    const shifted = condIds.filter((c) => c !== 'clean');
    const means = results.map((m) => mean(shifted.map((c) => m.get(c) as Figures)));
    row(`mean of ${shifted.length} shifted`, means[0], means[1]);
    summary[split.id] = {
      label: split.label,
      clean: { previous: results[0].get('clean'), shipped: results[1].get('clean') },
      meanShifted: { previous: means[0], shipped: means[1] },
      perCondition: Object.fromEntries(
        shifted.map((c) => [c, { previous: results[0].get(c), shipped: results[1].get(c) }]),
      ),
    };
  }
  console.log('');
  console.log('+ marks a cell where the shipped model is better. Goals (other languages, unseen speakers):');
  console.log(
    '4-class UAR ≥ 55 % cold, ≥ 60 % speaker-normalised; match AUC ≥ 0.80 annotated, ≥ 0.75 actor;',
  );
  console.log(
    'arousal AUC ≥ 0.85 cold, ≥ 0.90 normalised. This bench is a proxy for them, not a measurement.',
  );
  console.log(`time: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  nemoReport();
  await readingReport();
  if (process.argv.includes('--record')) {
    const file = resolve(root, 'src', 'audio', 'analysis', 'emotion-model.json');
    const model = JSON.parse(readFileSync(file, 'utf8'));
    const round = (v: unknown): unknown =>
      typeof v === 'number'
        ? Number(v.toFixed(4))
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, round(x)]))
          : v;
    model.evaluation.transfer = {
      command: 'npm run eval:transfer',
      protocol:
        'held-out speakers (and sentences) through simulated shifts; both recipes refitted per fold; see scripts/eval/transfer',
      ...(round(summary) as object),
    };
    writeFileSync(file, `${JSON.stringify(model)}\n`);
    execFileSync(resolve(root, 'node_modules', '.bin', 'biome'), ['format', '--write', file], {
      stdio: 'ignore',
    });
    console.log(`recorded in ${file}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
