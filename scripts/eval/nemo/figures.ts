/**
 * The out-of-domain figures: how a scoring version reads takes by speakers, in a language, that its
 * model never heard (nemo-dev; see dataset.ts). Each take is read
 *  - cold: nothing known of the voice (a learner's first take);
 *  - warm: with the statistics of one neutral take of the same speaker and another sentence (a voice
 *    warm-up before the first take; that take is never judged itself);
 *  - running: the speaker's takes in a seeded order, each with the statistics of the takes before it
 *    (as the service accumulates them; the first is cold);
 *  - all: with the statistics of all the speaker's other takes (a learner with a long history).
 * Figures: what the app would claim (a category named, a percentage shown) and how often it is right,
 * 4-class UAR, arousal AUC, the match score's AUC over same-sentence pairs by two speakers, the
 * wrong-emotion pass rate and the scene arc's AUC.
 */
import type { Emotion } from '../../../src/api/contract';
import type { EmotionEstimate, SpeakerStats } from '../../../src/audio/analysis';
import { updateSpeakerStats } from '../../../src/audio/analysis';
import { statsOf, withoutTake } from '../../emotion/recipe';
import { passRate } from '../roc-auc';
import { argmaxOf, auc, expectedCalibrationError, uar } from '../transfer/metrics';
import type { NemoTake } from './dataset';
import { seededOrder, seededRandom } from '../../lib/seeded';

export type Target = { kind: 'annotated'; emotion: Emotion } | { kind: 'actor'; reading: EmotionEstimate };

/** What one scoring version does with a take: its model's reading, what it claims, its match score. */
export interface Version {
  id: string;
  label: string;
  project(x: Float64Array): Float64Array;
  read(x: Float64Array, stats: SpeakerStats | null): EmotionEstimate;
  /** The category named to the learner (null: none) and the percentage shown beside it (null: none). */
  claim(e: EmotionEstimate, stats: SpeakerStats | null): { named: Emotion | null; confidence: number | null };
  match(learner: EmotionEstimate, target: Target): number;
  /**
   * Arc of a scene: how well the learner's line-to-line movement follows the actor's (0–100), each
   * read against their own voice; null when the version has no arc score.
   */
  arc?(learner: EmotionEstimate[], actor: EmotionEstimate[]): number;
}

export type Mode = 'cold' | 'warm' | 'running' | 'all';
export const MODES: Mode[] = ['cold', 'warm', 'running', 'all'];

export interface Read {
  take: NemoTake;
  x: Float64Array;
  stats: Record<Mode, SpeakerStats | null>;
  reading: Record<Mode, EmotionEstimate>;
}

const FOUR: Emotion[] = ['anger', 'happiness', 'sadness', 'neutral'];
const HIGH = new Set<Emotion>(['anger', 'happiness', 'fear']);
const LOW = new Set<Emotion>(['sadness', 'neutral']);

function hashOf(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Reads every take in every mode. */
export function readAll(v: Version, takes: NemoTake[], features: Map<string, Float64Array>): Read[] {
  const out: Read[] = [];
  for (const spk of [...new Set(takes.map((t) => t.speaker))].sort()) {
    const own = takes.filter((t) => t.speaker === spk);
    const xs = new Map(own.map((t) => [t.file, v.project(features.get(t.file) as Float64Array)]));
    const full = statsOf(own.map((t) => xs.get(t.file) as Float64Array));
    const neutral = own.filter((t) => t.emotion === 'neutral');
    const running = new Map<string, SpeakerStats | null>();
    let acc: SpeakerStats | null = null;
    for (const t of seededOrder(own, hashOf(spk))) {
      running.set(t.file, acc);
      acc = updateSpeakerStats(acc, xs.get(t.file) as Float64Array);
    }
    for (const t of own) {
      const x = xs.get(t.file) as Float64Array;
      // The warm-up: a neutral take of another sentence, chosen by a fixed rule.
      const others = neutral.filter((n) => n.text !== t.text);
      const w = others[hashOf(t.file) % Math.max(1, others.length)];
      const stats: Record<Mode, SpeakerStats | null> = {
        cold: null,
        warm: w ? statsOf([xs.get(w.file) as Float64Array]) : null,
        running: running.get(t.file) ?? null,
        all: withoutTake(full, x),
      };
      const reading = Object.fromEntries(MODES.map((m) => [m, v.read(x, stats[m])])) as Record<
        Mode,
        EmotionEstimate
      >;
      out.push({ take: t, x, stats, reading });
    }
  }
  return out;
}

export interface ClaimFigures {
  /** Share of takes where a category is named. */
  namedShare: number;
  /** Of those, share where it is the take's emotion (NaN when none is named). */
  namedRight: number;
  perClass: Array<{ emotion: Emotion; named: number; right: number }>;
  /** Share of takes where a percentage is shown; mean shown; accuracy of those; ECE (NaN: none). */
  shownShare: number;
  shownMean: number;
  shownRight: number;
  ece: number;
}

export function claims(v: Version, reads: Read[], mode: Mode): ClaimFigures {
  const named: Array<{ named: Emotion; truth: Emotion }> = [];
  const shown: Array<{ confidence: number; correct: boolean }> = [];
  for (const r of reads) {
    const c = v.claim(r.reading[mode], r.stats[mode]);
    if (c.named) named.push({ named: c.named, truth: r.take.emotion });
    if (c.confidence !== null)
      shown.push({
        confidence: c.confidence,
        correct: (c.named ?? r.reading[mode].detected) === r.take.emotion,
      });
  }
  const classes = [...new Set(named.map((n) => n.named))].sort();
  return {
    namedShare: named.length / reads.length,
    namedRight: named.length ? named.filter((n) => n.named === n.truth).length / named.length : Number.NaN,
    perClass: classes.map((e) => ({
      emotion: e,
      named: named.filter((n) => n.named === e).length,
      right: named.filter((n) => n.named === e && n.truth === e).length,
    })),
    shownShare: shown.length / reads.length,
    shownMean: shown.length ? shown.reduce((s, r) => s + r.confidence, 0) / shown.length : Number.NaN,
    shownRight: shown.length ? shown.filter((r) => r.correct).length / shown.length : Number.NaN,
    ece: shown.length ? expectedCalibrationError(shown) : Number.NaN,
  };
}

export function uar4(reads: Read[], mode: Mode): { uar: number; recall: Record<string, number> } {
  const pairs = reads
    .filter((r) => FOUR.includes(r.take.emotion))
    .map((r) => ({ truth: r.take.emotion, predicted: argmaxOf(r.reading[mode].probabilities, FOUR) }));
  const recall: Record<string, number> = {};
  for (const c of FOUR) {
    const rows = pairs.filter((p) => p.truth === c);
    recall[c] = rows.filter((p) => p.predicted === c).length / rows.length;
  }
  return { uar: uar(pairs, FOUR), recall };
}

export function arousalAuc(reads: Read[], mode: Mode): number {
  return auc(
    reads
      .filter((r) => HIGH.has(r.take.emotion) || LOW.has(r.take.emotion))
      .map((r) => ({ score: r.reading[mode].arousal, positive: HIGH.has(r.take.emotion) })),
  );
}

/**
 * What carries valence across voices: AUC of happiness against the negative classes (anger, fear,
 * sadness) by the valence head, and of happiness against anger (same energy, opposite valence) by the
 * valence head and by the category probabilities (p happiness − p anger).
 */
export function valenceAucs(
  reads: Read[],
  mode: Mode,
): { valence: number; happyVsAngry: number; categoryHappyVsAngry: number } {
  const neg = new Set<Emotion>(['anger', 'fear', 'sadness']);
  const pick = (set: (e: Emotion) => boolean) =>
    reads.filter((r) => r.take.emotion === 'happiness' || set(r.take.emotion));
  return {
    valence: auc(
      pick((e) => neg.has(e)).map((r) => ({
        score: r.reading[mode].valence,
        positive: r.take.emotion === 'happiness',
      })),
    ),
    happyVsAngry: auc(
      pick((e) => e === 'anger').map((r) => ({
        score: r.reading[mode].valence,
        positive: r.take.emotion === 'happiness',
      })),
    ),
    categoryHappyVsAngry: auc(
      pick((e) => e === 'anger').map((r) => ({
        score: r.reading[mode].probabilities.happiness - r.reading[mode].probabilities.anger,
        positive: r.take.emotion === 'happiness',
      })),
    ),
  };
}

export interface MatchFigures {
  annotated: number;
  actor: number;
  /** Share of (take, line) pairs of different emotions where the take scores ≥ EMOTION_PASS. */
  wrongPassAnnotated: number;
  wrongPassActor: number;
  /** Share of same-emotion pairs that pass (what a right take gets). */
  rightPassAnnotated: number;
  rightPassActor: number;
  pairs: number;
}

/**
 * Match figures. Annotated: every take against a line of every emotion (the line's target). Actor:
 * every take against every take of the same sentence by another speaker (read cold, one recording of
 * an unknown voice). The learner is read in `mode`.
 */
export function matchFigures(v: Version, reads: Read[], mode: Mode, actorMode: Mode = 'cold'): MatchFigures {
  const emotions = [...new Set(reads.map((r) => r.take.emotion))];
  const ann: Array<{ score: number; positive: boolean }> = [];
  const act: Array<{ score: number; positive: boolean }> = [];
  for (const r of reads) {
    for (const e of emotions)
      ann.push({
        score: v.match(r.reading[mode], { kind: 'annotated', emotion: e }),
        positive: e === r.take.emotion,
      });
  }
  const byText = new Map<string, Read[]>();
  for (const r of reads) byText.set(r.take.text, [...(byText.get(r.take.text) ?? []), r]);
  for (const group of byText.values())
    for (const actor of group)
      for (const r of group) {
        if (r.take.speaker === actor.take.speaker) continue;
        act.push({
          score: v.match(r.reading[mode], { kind: 'actor', reading: actor.reading[actorMode] }),
          positive: r.take.emotion === actor.take.emotion,
        });
      }
  return {
    annotated: auc(ann),
    actor: auc(act),
    wrongPassAnnotated: passRate(ann, false),
    wrongPassActor: passRate(act, false),
    rightPassAnnotated: passRate(ann, true),
    rightPassActor: passRate(act, true),
    pairs: act.length,
  };
}

/** The arc figures of one reading mode and scene length: AUC, and how often each statement is said. */
export interface ArcFigures {
  auc: number;
  /** Share of scenes read as following the actor ("arc follows the scene"): same order / shuffled. */
  followsSame: number;
  followsShuffled: number;
  /** Share read as not following it: same order / shuffled. */
  againstSame: number;
  againstShuffled: number;
  scenes: number;
}

/**
 * Arc figures: scenes of `length` sentences. The actor is one speaker reading the sentences in an
 * order of emotions; the learner another speaker reading the same sentences, in the same emotions
 * (positive) or in the same emotions shuffled across the lines (negative: the same material, the
 * arc broken). Scenes are drawn with a fixed seed. `says` is the verdict the app words for a score
 * (src/audio/scoring/emotion-match.ts, arcVerdict).
 */
export function arcFigures(
  v: Version,
  reads: Read[],
  mode: Mode,
  says: (score: number) => 'follows' | 'against' | null,
  length = 4,
  scenes = 3000,
): ArcFigures | null {
  if (!v.arc) return null;
  const index = new Map<string, Read>();
  for (const r of reads) index.set(`${r.take.speaker}|${r.take.text}|${r.take.emotion}`, r);
  const speakers = [...new Set(reads.map((r) => r.take.speaker))].sort();
  const texts = [...new Set(reads.map((r) => r.take.text))].sort();
  const emotions = [...new Set(reads.map((r) => r.take.emotion))].sort();
  const rand = seededRandom(12345);
  const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)];
  const rows: Array<{ score: number; positive: boolean }> = [];
  for (let s = 0; s < scenes; s++) {
    const actorSpk = pick(speakers);
    const learnerSpk = pick(speakers.filter((x) => x !== actorSpk));
    const lineTexts = seededOrder(texts, Math.floor(rand() * 1e9)).slice(0, length);
    const lineEmotions = lineTexts.map(() => pick(emotions));
    if (new Set(lineEmotions).size < 2) continue;
    const shuffled = seededOrder(lineEmotions, Math.floor(rand() * 1e9));
    if (shuffled.every((e, i) => e === lineEmotions[i])) continue;
    const get = (spk: string, i: number, e: Emotion) => index.get(`${spk}|${lineTexts[i]}|${e}`);
    const actor = lineTexts.map((_, i) => get(actorSpk, i, lineEmotions[i]));
    const same = lineTexts.map((_, i) => get(learnerSpk, i, lineEmotions[i]));
    const other = lineTexts.map((_, i) => get(learnerSpk, i, shuffled[i]));
    if ([...actor, ...same, ...other].some((r) => !r)) continue;
    const a = (actor as Read[]).map((r) => r.reading.cold);
    rows.push({
      score: v.arc(
        (same as Read[]).map((r) => r.reading[mode]),
        a,
      ),
      positive: true,
    });
    rows.push({
      score: v.arc(
        (other as Read[]).map((r) => r.reading[mode]),
        a,
      ),
      positive: false,
    });
  }
  const share = (positive: boolean, verdict: 'follows' | 'against') => {
    const sel = rows.filter((r) => r.positive === positive);
    return sel.filter((r) => says(r.score) === verdict).length / sel.length;
  };
  return {
    auc: auc(rows),
    followsSame: share(true, 'follows'),
    followsShuffled: share(false, 'follows'),
    againstSame: share(true, 'against'),
    againstShuffled: share(false, 'against'),
    scenes: rows.length / 2,
  };
}
