/**
 * `npm run eval:match` — does the emotion-match score rank same-emotion takes above others?
 *
 * On EmoDB (../shared/datasets/emodb, or EMODB_DIR), ten actors say the same ten sentences in
 * several emotions. For every sentence and every ordered pair of recordings by two DIFFERENT
 * speakers, one is the "actor" (reference) and the other the "take"; a pair is positive when both
 * carry the same emotion. The ROC AUC of the service's emotion-match score over all such pairs is
 * printed (goal ≥ 0.85), for:
 *   - target = the actor's own emotion distribution (what the service uses when the line has no
 *     annotated target), learner cold (first take, no statistics);
 *   - the same with the learner speaker-normalised (statistics from that speaker's OTHER recordings,
 *     as a learner with history would have);
 *   - target = the annotated emotion of the actor's recording.
 * Trailing zero padding of this copy is trimmed before analysis (see the dataset's SOURCE.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Emotion } from '../../src/api/contract';
import {
  analyzeVoice,
  classifyEmotion,
  type EmotionEstimate,
  emotionModel,
  type SpeakerStats,
  updateSpeakerStats,
} from '../../src/audio/analysis';
import { emotionMatch } from '../../src/audio/scoring/emotion-match';
import { decodeWav, toMono } from '../../src/audio/dsp/wav';
import { rocAuc } from './roc-auc';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIR = path.resolve(process.env.EMODB_DIR ?? path.join(ROOT, '..', 'shared', 'datasets', 'emodb'));

interface Recording {
  stem: string;
  speaker: string;
  text: string;
  emotion: Emotion;
  features: Float64Array;
  cold: EmotionEstimate;
  normalised: EmotionEstimate;
}

function trimTrailingZeros(x: Float32Array): Float32Array {
  let end = x.length;
  while (end > 0 && x[end - 1] === 0) end--;
  return x.subarray(0, end);
}

function readLabels(): Array<{ stem: string; speaker: string; text: string; emotion: Emotion }> {
  const [header, ...rows] = fs.readFileSync(path.join(DIR, 'labels.csv'), 'utf8').trim().split(/\r?\n/);
  const cols = header.split(',');
  const at = (n: string) => cols.indexOf(n);
  return rows.map((row) => {
    const f = row.split(',');
    return {
      stem: f[at('file')].replace(/\.wav$/, ''),
      speaker: f[at('speaker')],
      text: f[at('text')],
      emotion: f[at('emotion')] as Emotion,
    };
  });
}

function main(): void {
  if (!fs.existsSync(path.join(DIR, 'labels.csv')) || !fs.existsSync(path.join(DIR, 'wav'))) {
    console.log(`eval:match SKIPPED: EmoDB is absent (looked in ${DIR} for labels.csv and wav/).`);
    console.log('Put the dataset there or set EMODB_DIR; no figures were computed.');
    return;
  }
  const model = emotionModel();
  const started = performance.now();
  const labels = readLabels();
  const analysed = labels.map((l) => {
    const wav = decodeWav(new Uint8Array(fs.readFileSync(path.join(DIR, 'wav', `${l.stem}.wav`))));
    const a = analyzeVoice(trimTrailingZeros(toMono(wav)), wav.sampleRate);
    return { ...l, features: a.features };
  });

  // Leave-one-out speaker statistics: each recording is normalised with the speaker's other takes.
  const bySpeaker = new Map<string, typeof analysed>();
  for (const r of analysed) bySpeaker.set(r.speaker, [...(bySpeaker.get(r.speaker) ?? []), r]);
  const recordings: Recording[] = analysed.map((r) => {
    let stats: SpeakerStats | null = null;
    for (const o of bySpeaker.get(r.speaker) ?? [])
      if (o !== r) stats = updateSpeakerStats(stats, o.features);
    return { ...r, cold: classifyEmotion(r.features, null), normalised: classifyEmotion(r.features, stats) };
  });

  const actorCold: Array<{ score: number; positive: boolean }> = [];
  const actorNorm: Array<{ score: number; positive: boolean }> = [];
  const annotated: Array<{ score: number; positive: boolean }> = [];
  const byText = new Map<string, Recording[]>();
  for (const r of recordings) byText.set(r.text, [...(byText.get(r.text) ?? []), r]);
  for (const group of byText.values()) {
    for (const actor of group) {
      for (const take of group) {
        if (take.speaker === actor.speaker) continue; // speaker-disjoint pairs only
        const positive = take.emotion === actor.emotion;
        actorCold.push({
          score: emotionMatch(take.cold, { kind: 'actor', reading: actor.cold }).score,
          positive,
        });
        actorNorm.push({
          score: emotionMatch(take.normalised, { kind: 'actor', reading: actor.cold }).score,
          positive,
        });
        annotated.push({
          score: emotionMatch(take.normalised, { kind: 'annotated', emotion: actor.emotion }).score,
          positive,
        });
      }
    }
  }
  const positives = actorCold.filter((p) => p.positive).length;
  const seconds = (performance.now() - started) / 1000;

  console.log(
    'eval:match — emotion-match score, EmoDB, speaker-disjoint actor/take pairs of the same sentence',
  );
  console.log(`dataset: ${DIR}`);
  console.log(
    `recordings: ${recordings.length} (${bySpeaker.size} speakers, ${byText.size} sentences), trailing zero padding trimmed`,
  );
  console.log(
    `pairs: ${actorCold.length} (same emotion ${positives}, different ${actorCold.length - positives})`,
  );
  console.log('');
  console.log(
    `ROC AUC, target = actor's distribution, learner cold (first take):   ${rocAuc(actorCold).toFixed(4)}`,
  );
  console.log(
    `ROC AUC, target = actor's distribution, learner speaker-normalised:   ${rocAuc(actorNorm).toFixed(4)}`,
  );
  console.log(
    `ROC AUC, target = annotated emotion, learner speaker-normalised:      ${rocAuc(annotated).toFixed(4)}`,
  );
  console.log('goal: ≥ 0.85');
  console.log('');
  const trained = (model as { trained?: boolean }).trained !== false;
  console.log(
    trained
      ? 'LEAKAGE NOTE: the shipped emotion model was trained on ALL EmoDB speakers, including the two speakers of ' +
          'every pair, so these AUCs are optimistic for unseen voices. The speaker-independent accuracy of the ' +
          'classifier itself is the leave-one-speaker-out UAR printed by `npm run eval:emotion`.'
      : 'NOTE: the emotion model file is an untrained placeholder (uniform probabilities): run `npm run train:emotion` first.',
  );
  console.log(`time: ${seconds.toFixed(1)} s`);
}

main();
