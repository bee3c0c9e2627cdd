/**
 * `npm run eval:match` — do the scores rank same-emotion takes above others?
 *
 * On EmoDB (../shared/datasets/emodb, or EMODB_DIR), ten actors say the same ten sentences in
 * several emotions. For every sentence and every ordered pair of recordings by two DIFFERENT
 * speakers, one is the "actor" (reference) and the other the "take"; a pair is positive when both
 * carry the same emotion. Printed: the ROC AUC over all pairs of
 *   - the emotion sub-score, target = the annotated emotion or the actor's reading (read cold: one
 *     recording of an unknown voice), learner cold (a first take) or speaker-normalised (statistics
 *     from that speaker's OTHER recordings), for the shipped recipe and the previous one;
 *   - the intonation, energy and timing sub-scores and the overall score: what each says about the
 *     emotion (they compare the delivery with the actor's, so near 0.5 means "no emotion signal").
 * Every recording is read by the model of the leave-one-speaker-out fold that did not hear its
 * speaker, so neither side of any pair was seen in training. Trailing zero padding is trimmed.
 * Then the out-of-domain table on nemo-dev (scripts/eval/nemo), which holds the match AUC, pass rates
 * and scene arc AUC on speakers and a language no model heard; `-- --only nemo` prints it alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Emotion } from '../../src/api/contract';
import {
  analyzeVoice,
  classifyEmotion,
  type EmotionEstimate,
  FEATURE_NAMES,
  type SpeakerStats,
  type VoiceAnalysis,
} from '../../src/audio/analysis';
import { compareVoices } from '../../src/audio/scoring/compare';
import { EMOTION_PASS } from '../../src/audio/scoring/aggregate';
import { emotionMatch } from '../../src/audio/scoring/emotion-match';
import {
  compareParts,
  overallScore,
  qualityScore,
  subScoresFromParts,
} from '../../src/audio/scoring/subscores';
import { loadSamples } from '../emotion/dataset';
import { classifyPrevious, fitPrevious, pickPrevious, previousMatch } from '../emotion/previous/recipe';
import type { Sample } from '../emotion/protocol';
import { DEFAULT_RECIPE, fitRecipe, statsOf, withoutTake } from '../emotion/recipe';
import { emoDbDir, loadEmoDbAudio, loadEmoDbIndex } from '../lib/emodb';
import { nemoReport } from './nemo/report';
import { passRate, rocAuc } from './roc-auc';

interface Reading {
  cold: EmotionEstimate;
  normalised: EmotionEstimate;
}

type Scored = Array<{ score: number; positive: boolean }>;

/** Cold and speaker-normalised readings of every sample by its own held-out fold model. */
function readings(
  samples: Sample[],
  read: (spk: string, x: Float64Array, stats: SpeakerStats | null) => EmotionEstimate,
  project: (x: Float64Array) => Float64Array,
): Map<Sample, Reading> {
  const out = new Map<Sample, Reading>();
  for (const spk of new Set(samples.map((s) => s.speaker))) {
    const own = samples.filter((s) => s.speaker === spk);
    const full = statsOf(own.map((s) => project(s.variants[0])));
    for (const s of own) {
      const x = project(s.variants[0]);
      out.set(s, { cold: read(spk, x, null), normalised: read(spk, x, withoutTake(full, x)) });
    }
  }
  return out;
}

function main(): Promise<void> | void {
  if (process.argv.includes('--only') && process.argv[process.argv.indexOf('--only') + 1] === 'nemo') {
    nemoReport();
    return;
  }
  const dir = emoDbDir();
  if (!fs.existsSync(path.join(dir, 'labels.csv')) || !fs.existsSync(path.join(dir, 'wav'))) {
    console.log(`eval:match SKIPPED: EmoDB is absent (looked in ${dir} for labels.csv and wav/).`);
    console.log('Put the dataset there or set EMODB_DIR; no figures were computed.');
    return;
  }
  return run(dir);
}

async function run(dir: string): Promise<void> {
  const started = performance.now();
  const samples = await loadSamples(DEFAULT_RECIPE.variants);
  const speakers = [...new Set(samples.map((s) => s.speaker))].sort();
  const project = pickPrevious(FEATURE_NAMES);
  const shipped = new Map<string, ReturnType<typeof fitRecipe>>();
  const previous = new Map<string, ReturnType<typeof fitPrevious>>();
  for (const spk of speakers) {
    process.stderr.write(`fitting fold without speaker ${spk}\n`);
    const train = samples.filter((s) => s.speaker !== spk);
    shipped.set(spk, fitRecipe(train, DEFAULT_RECIPE));
    previous.set(
      spk,
      fitPrevious(train.map((s) => ({ speaker: s.speaker, emotion: s.emotion, x: project(s.variants[0]) }))),
    );
  }
  const now = readings(
    samples,
    (spk, x, st) => classifyEmotion(x, st, shipped.get(spk)),
    (x) => x,
  );
  const before = readings(
    samples,
    (spk, x, st) => classifyPrevious(x, st, previous.get(spk) as ReturnType<typeof fitPrevious>),
    project,
  );
  process.stderr.write('analysing the recordings for the delivery comparison\n');
  const entries = new Map(loadEmoDbIndex().map((e) => [e.file, e]));
  const analyses = new Map<Sample, VoiceAnalysis>();
  for (const s of samples) {
    const a = loadEmoDbAudio(entries.get(s.file) as NonNullable<ReturnType<typeof entries.get>>);
    analyses.set(s, analyzeVoice(a.samples, a.sampleRate));
  }
  const rows: Record<string, Scored> = {};
  const add = (k: string, score: number, positive: boolean) => {
    rows[k] ??= [];
    rows[k].push({ score, positive });
  };
  for (const actor of samples) {
    const a = now.get(actor) as Reading;
    const pa = before.get(actor) as Reading;
    for (const take of samples) {
      if (take.text !== actor.text || take.speaker === actor.speaker) continue;
      const t = now.get(take) as Reading;
      const pt = before.get(take) as Reading;
      const positive = take.emotion === actor.emotion;
      const annotated = { kind: 'annotated' as const, emotion: actor.emotion as Emotion };
      const model = shipped.get(take.speaker);
      const emotionAnn = emotionMatch(t.cold, annotated, model).score;
      add('ann cold', emotionAnn, positive);
      add('ann norm', emotionMatch(t.normalised, annotated, model).score, positive);
      add('act cold', emotionMatch(t.cold, { kind: 'actor', reading: a.cold }, model).score, positive);
      add('act norm', emotionMatch(t.normalised, { kind: 'actor', reading: a.cold }, model).score, positive);
      // The actor read against their own other recordings, as a film's other lines by the same role
      // would allow (src/audio/scoring/pipeline.ts, fromReferenceRecord with actorStatsOf).
      const actorNorm = { kind: 'actor' as const, reading: a.normalised };
      add('actn cold', emotionMatch(t.cold, actorNorm, model).score, positive);
      add('actn norm', emotionMatch(t.normalised, actorNorm, model).score, positive);
      add('prev ann cold', previousMatch(pt.cold, annotated), positive);
      add('prev ann norm', previousMatch(pt.normalised, annotated), positive);
      add('prev act cold', previousMatch(pt.cold, { kind: 'actor', reading: pa.cold }), positive);
      add('prev act norm', previousMatch(pt.normalised, { kind: 'actor', reading: pa.cold }), positive);
      const la = analyses.get(take) as VoiceAnalysis;
      const sub = subScoresFromParts(compareParts(compareVoices(la, analyses.get(actor) as VoiceAnalysis)));
      add('intonation', sub.intonation, positive);
      add('energy', sub.energy, positive);
      add('timing', sub.timing, positive);
      add(
        'overall',
        overallScore({ emotion: emotionAnn, ...sub, quality: qualityScore(la.quality) }),
        positive,
      );
    }
  }
  const auc = (k: string) => rocAuc(rows[k]).toFixed(3);
  const n = rows['ann cold'].length;
  const pos = rows['ann cold'].filter((r) => r.positive).length;
  console.log('eval:match — EmoDB, speaker-disjoint actor/take pairs of the same sentence');
  console.log(`dataset: ${dir} (trailing zero padding trimmed)`);
  console.log(
    `recordings: ${samples.length} (${speakers.length} speakers); pairs: ${n} (same emotion ${pos})`,
  );
  console.log('every recording read by the leave-one-speaker-out model that did not hear its speaker');
  console.log('');
  console.log('ROC AUC of the emotion score                         previous  shipped');
  for (const [label, k] of [
    ['target = annotated emotion, learner cold          ', 'ann cold'],
    ['target = annotated emotion, learner normalised    ', 'ann norm'],
    ["target = actor's take (cold), learner cold        ", 'act cold'],
    ["target = actor's take (cold), learner normalised  ", 'act norm'],
  ])
    console.log(`  ${label}   ${auc(`prev ${k}`)}    ${auc(k)}`);
  console.log('');
  // What a learner is told: a line passes at EMOTION_PASS. Pairs of another emotion that pass are
  // the wrong-emotion pass rate (nemo-dev's table prints the same figure out of domain).
  console.log(
    `pass rate of the emotion score (≥ ${EMOTION_PASS}), shipped      wrong emotion  right emotion  AUC`,
  );
  for (const [label, k] of [
    ['target = annotated emotion, learner cold          ', 'ann cold'],
    ['target = annotated emotion, learner normalised    ', 'ann norm'],
    ["target = actor's take (cold), learner cold        ", 'act cold'],
    ["target = actor's take (cold), learner normalised  ", 'act norm'],
    ['target = actor read against their other takes, learner cold      ', 'actn cold'],
    ['target = actor read against their other takes, learner normalised', 'actn norm'],
  ]) {
    const rate = (positive: boolean) => `${(100 * passRate(rows[k], positive)).toFixed(1)} %`;
    console.log(
      `  ${label.trim().padEnd(68)} ${rate(false).padStart(8)} ${rate(true).padStart(14)}  ${auc(k)}`,
    );
  }
  console.log('');
  console.log('ROC AUC of the delivery sub-scores as emotion-match signals (0.5 = none):');
  for (const k of ['intonation', 'energy', 'timing']) console.log(`  ${k.padEnd(12)} ${auc(k)}`);
  console.log(`  overall      ${auc('overall')} (emotion: annotated target, learner cold)`);
  console.log('');
  console.log('goal on other languages: ≥ 0.80 annotated, ≥ 0.75 actor (this is EmoDB, a proxy)');
  console.log(`time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  nemoReport();
}

await main();
