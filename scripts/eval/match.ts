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
 * Figures come twice: with leave-one-speaker-out fold models (honest) and with the shipped model
 * (trained on every speaker, so optimistic).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EmotionModelFile } from '../../src/audio/analysis';
import {
  classifyEmotion,
  type EmotionEstimate,
  emotionModel,
  type SpeakerStats,
  updateSpeakerStats,
} from '../../src/audio/analysis';
import { emotionMatch } from '../../src/audio/scoring/emotion-match';
import { loadSamples, type Sample } from '../emotion/dataset';
import { fitModel } from '../emotion/protocol';
import { emoDbDir } from '../lib/emodb';
import { rocAuc } from './roc-auc';

interface Reading {
  cold: EmotionEstimate;
  normalised: EmotionEstimate;
}

interface Scored {
  score: number;
  positive: boolean;
}

/** Statistics of a speaker's recordings other than `self` (a learner's history before this take). */
function otherTakesStats(samples: Sample[], self: Sample): SpeakerStats | null {
  let stats: SpeakerStats | null = null;
  for (const o of samples)
    if (o !== self && o.speaker === self.speaker) stats = updateSpeakerStats(stats, o.features);
  return stats;
}

function readAll(samples: Sample[], modelFor: (s: Sample) => EmotionModelFile): Map<Sample, Reading> {
  const out = new Map<Sample, Reading>();
  for (const s of samples) {
    const model = modelFor(s);
    out.set(s, {
      cold: classifyEmotion(s.features, null, model),
      normalised: classifyEmotion(s.features, otherTakesStats(samples, s), model),
    });
  }
  return out;
}

/** Every ordered (actor, take) pair of the same sentence by two different speakers. */
function pairs(samples: Sample[], readings: Map<Sample, Reading>) {
  const actorCold: Scored[] = [];
  const actorNorm: Scored[] = [];
  const annotated: Scored[] = [];
  for (const actor of samples) {
    const a = readings.get(actor) as Reading;
    for (const take of samples) {
      if (take.text !== actor.text || take.speaker === actor.speaker) continue;
      const t = readings.get(take) as Reading;
      const positive = take.emotion === actor.emotion;
      // The actor is always read cold: a reference line is one recording of a voice we know nothing of.
      actorCold.push({ score: emotionMatch(t.cold, { kind: 'actor', reading: a.cold }).score, positive });
      actorNorm.push({
        score: emotionMatch(t.normalised, { kind: 'actor', reading: a.cold }).score,
        positive,
      });
      annotated.push({
        score: emotionMatch(t.normalised, { kind: 'annotated', emotion: actor.emotion }).score,
        positive,
      });
    }
  }
  return { actorCold, actorNorm, annotated };
}

function printAucs(title: string, r: ReturnType<typeof pairs>): void {
  console.log(title);
  console.log(
    `  target = actor's distribution, learner cold (first take):   ${rocAuc(r.actorCold).toFixed(4)}`,
  );
  console.log(
    `  target = actor's distribution, learner speaker-normalised:  ${rocAuc(r.actorNorm).toFixed(4)}`,
  );
  console.log(
    `  target = annotated emotion,   learner speaker-normalised:  ${rocAuc(r.annotated).toFixed(4)}`,
  );
}

function main(): void {
  const dir = emoDbDir();
  if (!fs.existsSync(path.join(dir, 'labels.csv')) || !fs.existsSync(path.join(dir, 'wav'))) {
    console.log(`eval:match SKIPPED: EmoDB is absent (looked in ${dir} for labels.csv and wav/).`);
    console.log('Put the dataset there or set EMODB_DIR; no figures were computed.');
    return;
  }
  const started = performance.now();
  const samples = loadSamples(false);
  const speakers = [...new Set(samples.map((s) => s.speaker))].sort();

  // Honest figures: every recording is read by a model trained WITHOUT its speaker (leave-one-
  // speaker-out folds), so neither side of any pair was seen in training.
  const folds = new Map<string, EmotionModelFile>();
  for (const spk of speakers) {
    process.stderr.write(`training fold without speaker ${spk} (${folds.size + 1}/${speakers.length})\n`);
    folds.set(spk, fitModel(samples.filter((s) => s.speaker !== spk)));
  }
  const loso = pairs(
    samples,
    readAll(samples, (s) => folds.get(s.speaker) as EmotionModelFile),
  );
  const shipped = pairs(
    samples,
    readAll(samples, () => emotionModel()),
  );
  const positives = loso.actorCold.filter((p) => p.positive).length;

  console.log(
    'eval:match — emotion-match score, EmoDB, speaker-disjoint actor/take pairs of the same sentence',
  );
  console.log(`dataset: ${dir} (trailing zero padding trimmed)`);
  console.log(
    `recordings: ${samples.length} (${speakers.length} speakers, ${new Set(samples.map((s) => s.text)).size} sentences)`,
  );
  console.log(
    `pairs: ${loso.actorCold.length} (same emotion ${positives}, different ${loso.actorCold.length - positives})`,
  );
  console.log('');
  printAucs(
    'ROC AUC, leave-one-speaker-out models (no speaker of a pair seen in training) — the honest figure:',
    loso,
  );
  console.log('');
  printAucs(
    'ROC AUC, the shipped model (trained on ALL ten speakers: optimistic, speaker leakage):',
    shipped,
  );
  console.log('');
  console.log('goal: ≥ 0.85 (honest figure, actor-distribution target)');
  console.log(`time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main();
