/**
 * The first take's reading (docs/emotion.md, "The first take"): cold heads alone (before) against the
 * cold heads with the typical voice of the language and register (after), then the voice warm-up and
 * the learner's own running statistics, on
 *  - EmoDB, leave one speaker out (each speaker read by the recipe refitted without them): arousal
 *    AUC and 7-class UAR;
 *  - nemo-dev (acted Polish, a language no typical voice is kept for: the pooled one): arousal AUC;
 *  - neutral read speech (scripts/emotion/neutral-voices.ts) by set, language and age band: the share
 *    read as calm (arousal below the scale's midpoint, 0) and the mean arousal. A neutral take should
 *    read calm: a child's voice is no excitement.
 * Modes: cold = nothing known of the voice; warm = after one other take of the same speaker (a
 * neutral take: the voice warm-up); running = the speaker's earlier takes in a seeded order (the
 * first of them cold). `npm run eval:transfer -- --only reading` prints this alone. The neutral sets
 * also shape the typical voices (scripts/emotion/voices.ts), so their calm shares are not held out:
 * the EmoDB and nemo-dev rows, and sets the team does not hold, are the check.
 */
import type { Emotion } from '../../src/api/contract';
import {
  classifyEmotion,
  type EmotionModelFile,
  type SpeakerStats,
  updateSpeakerStats,
} from '../../src/audio/analysis';
import { loadSamples } from '../emotion/dataset';
import {
  loadNeutralIndex,
  type NeutralTake,
  neutralFeatures,
  neutralPresent,
} from '../emotion/neutral-voices';
import { CLASSES, DEFAULT_RECIPE, fitRecipe, statsOf, withoutTake } from '../emotion/recipe';
import { seededOrder } from '../lib/seeded';
import { loadNemoIndex, nemoFeatures, nemoPresent } from './nemo/dataset';
import { auc, uar } from './transfer/metrics';

type Mode = 'before' | 'cold' | 'warm' | 'running';
const MODES: Mode[] = ['before', 'cold', 'warm', 'running'];
const HIGH = new Set<Emotion>(['anger', 'happiness', 'fear']);
const LOW = new Set<Emotion>(['sadness', 'neutral']);

interface Take {
  id: string;
  speaker: string;
  text: string;
  emotion: Emotion;
  language: string | null;
  x: Float64Array;
}

type Reader = (
  x: Float64Array,
  stats: SpeakerStats | null,
  language: string | null,
) => ReturnType<typeof classifyEmotion>;

function hashOf(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Every take of one speaker read in every mode. */
function readSpeaker(own: Take[], read: Reader, readBefore: Reader) {
  const running = new Map<string, SpeakerStats | null>();
  let acc: SpeakerStats | null = null;
  for (const t of seededOrder(own, hashOf(own[0].speaker))) {
    running.set(t.id, acc);
    acc = updateSpeakerStats(acc, t.x);
  }
  const neutral = own.filter((t) => t.emotion === 'neutral');
  return own.map((t) => {
    const others = neutral.filter((n) => n.id !== t.id && n.text !== t.text);
    const w = others.length ? others[hashOf(t.id) % others.length] : null;
    return {
      take: t,
      reading: {
        before: readBefore(t.x, null, t.language),
        cold: read(t.x, null, t.language),
        warm: w ? read(t.x, statsOf([w.x]), t.language) : null,
        running: read(t.x, running.get(t.id) ?? null, t.language),
      } as Record<Mode, ReturnType<typeof classifyEmotion> | null>,
    };
  });
}

type Read = ReturnType<typeof readSpeaker>[number];

function arousalAucOf(reads: Read[], mode: Mode): number {
  const rows = reads
    .filter((r) => r.reading[mode] && (HIGH.has(r.take.emotion) || LOW.has(r.take.emotion)))
    .map((r) => ({ score: r.reading[mode]?.arousal ?? 0, positive: HIGH.has(r.take.emotion) }));
  return auc(rows);
}

const pct = (v: number) => (Number.isFinite(v) ? `${(100 * v).toFixed(1)} %` : '–');
const num = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : '–');

export async function readingReport(print = (s: string) => console.log(s)): Promise<void> {
  const started = Date.now();
  const shipped: Reader = (x, stats, language) => classifyEmotion(x, stats, undefined, { language });
  const coldHeads: Reader = (x, stats) => classifyEmotion(x, stats, undefined, { voices: null });
  print('');
  print('the first take: cold heads alone (before) → with the typical voice (cold); then the voice warm-up');
  print(
    "(warm: one other neutral take of the speaker) and running statistics (the speaker's earlier takes).",
  );
  print(`${'set'.padEnd(58)}${MODES.map((m) => m.padStart(12)).join('')}`);
  const row = (label: string, cells: string[]) =>
    print(`${label.padEnd(58)}${cells.map((c) => c.padStart(12)).join('')}`);

  // EmoDB, leave one speaker out: the recipe refitted without each speaker, read with the typical voice.
  const samples = await loadSamples(DEFAULT_RECIPE.variants);
  const emoReads: Read[] = [];
  const normalised: Array<{ truth: Emotion; predicted: Emotion }> = [];
  for (const spk of [...new Set(samples.map((s) => s.speaker))].sort()) {
    const model: EmotionModelFile = fitRecipe(samples.filter((s) => s.speaker !== spk));
    const own: Take[] = samples
      .filter((s) => s.speaker === spk)
      .map((s) => ({
        id: s.file,
        speaker: spk,
        text: s.text,
        emotion: s.emotion,
        language: 'de',
        x: s.variants[0],
      }));
    const read: Reader = (x, stats, language) => classifyEmotion(x, stats, model, { language });
    const before: Reader = (x, stats) => classifyEmotion(x, stats, model, { voices: null });
    emoReads.push(...readSpeaker(own, read, before));
    const full = statsOf(own.map((t) => t.x));
    for (const t of own)
      normalised.push({ truth: t.emotion, predicted: read(t.x, withoutTake(full, t.x), 'de').detected });
  }
  row(
    'EmoDB, leave one speaker out: arousal AUC',
    MODES.map((m) => num(arousalAucOf(emoReads, m))),
  );
  row('EmoDB, leave one speaker out: 7-class UAR, against all the speaker’s other takes', [
    '',
    '',
    '',
    pct(uar(normalised, CLASSES)),
  ]);

  if (nemoPresent()) {
    const takes = loadNemoIndex();
    const f = nemoFeatures(takes);
    const reads: Read[] = [];
    for (const spk of [...new Set(takes.map((t) => t.speaker))].sort())
      reads.push(
        ...readSpeaker(
          takes
            .filter((t) => t.speaker === spk)
            .map((t) => ({
              id: t.file,
              speaker: spk,
              text: t.text,
              emotion: t.emotion,
              language: 'pl',
              x: f.get(t.file) as Float64Array,
            })),
          shipped,
          coldHeads,
        ),
      );
    row(
      'nemo-dev (Polish; pooled typical voice): arousal AUC',
      MODES.map((m) => num(arousalAucOf(reads, m))),
    );
  } else print('nemo-dev SKIPPED: not found (set NEMO_DIR)');

  if (neutralPresent()) {
    const takes = loadNeutralIndex();
    const f = neutralFeatures(takes);
    const groups = new Map<string, NeutralTake[]>();
    const label = (t: NeutralTake) =>
      t.set === 'so762'
        ? `so762-train, English by Mandarin speakers, ${t.age}`
        : `line-check, native ${t.language === 'en' ? 'English' : 'Mandarin'}`;
    for (const t of takes) groups.set(label(t), [...(groups.get(label(t)) ?? []), t]);
    const reads = new Map<string, Read[]>();
    for (const [g, ts] of [...groups].sort()) {
      const rs: Read[] = [];
      for (const spk of [...new Set(ts.map((t) => t.speaker))].sort())
        rs.push(
          ...readSpeaker(
            ts
              .filter((t) => t.speaker === spk)
              .map((t) => ({
                id: t.id,
                speaker: spk,
                text: t.id,
                emotion: 'neutral' as Emotion,
                language: t.language,
                x: f.get(t.id) as Float64Array,
              })),
            shipped,
            coldHeads,
          ),
        );
      reads.set(g, rs);
    }
    for (const [g, rs] of reads) {
      const calm = (m: Mode) => {
        const v = rs.filter((r) => r.reading[m]).map((r) => r.reading[m]?.arousal ?? 0);
        return v.length ? v.filter((a) => a < 0).length / v.length : Number.NaN;
      };
      row(
        `${g}: read as calm (${rs.length})`,
        MODES.map((m) => pct(calm(m))),
      );
    }
    for (const [g, rs] of reads) {
      const mean = (m: Mode) => {
        const v = rs.filter((r) => r.reading[m]).map((r) => r.reading[m]?.arousal ?? 0);
        return v.length ? v.reduce((s, a) => s + a, 0) / v.length : Number.NaN;
      };
      row(
        `${g}: mean arousal`,
        MODES.map((m) => num(mean(m))),
      );
    }
  } else print('neutral read speech SKIPPED: ../shared/datasets/so762-train or line-check not found');
  print(
    'goals: nemo-dev arousal AUC cold ≥ 0.90; neutral read speech read as calm ≥ 90 % in every group; EmoDB 7-class UAR ≥ 80 %.',
  );
  print(`reading time: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
