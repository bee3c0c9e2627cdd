/**
 * What to tell the learner about one take, as facts (pure): each a statement id of the shared
 * catalogue (src/i18n), the measured values it quotes and a severity (how much score it costs, 0–1).
 * The words are the catalogue's; nothing here writes a sentence.
 *
 * Each statement names one measured quantity, the same one the data table shows (the prosody
 * figures, the speech span in seconds), and its direction is read from that same quantity, so the
 * advice cannot contradict its figure (tests/unit/scoring/statement-direction.test.ts). The 2–3 most
 * severe are returned; when a take has fewer problems, what went well is named (with its figures).
 */
import { type Fact, fact } from '../../i18n/statements';
import { EMOTION_PASS } from './aggregate';
import { type Comparison, speechSpan } from './compare';
import type { EmotionMatch } from './emotion-match';
import { AROUSAL_TOLERANCE, emotionName, heardFact } from './labels';
import { type Parts, type QualityFlags, SOLO, WEIGHTS } from './subscores';
import type { SubScores } from '../../api/contract';
import type { EmotionReading, ScoringVoice } from './types';

export interface TipInput {
  learner: ScoringVoice;
  /** The actor's voice, for quoting its figures next to the learner's (null without a reference). */
  actor: ScoringVoice | null;
  flags: QualityFlags;
  emotion: EmotionReading;
  /** Whether the heard category may be named (see labels.ts heardFact). */
  named: boolean;
  /** The calibrated probability of the heard category when it may be shown, else null. */
  confidence: number | null;
  match: EmotionMatch;
  comparison: Comparison | null;
  parts: Parts;
  /** Learner's own pitch range (st) and loudness range (dB), used when there is no actor. */
  solo: { pitchRangeSt: number | null; loudnessRangeDb: number };
}

/** A statement about a take: the catalogue's id, its values, and how much score the problem costs. */
export type TakeStatement = Fact & { severity: number };

const MAX_TIPS = 3;
const MIN_TIPS = 2;
/** A problem worth a tip costs at least this much of the overall score (0–1, i.e. 2 points). */
const PROBLEM_THRESHOLD = 0.02;

const r1 = (v: number) => Math.round(v * 10) / 10;
const r2 = (v: number) => Math.round(v * 100) / 100;

/** An arousal reading (−1…1) as the 0–100 "intensity" a learner is shown. */
export const intensity = (arousal: number) => Math.round((Math.max(-1, Math.min(1, arousal)) + 1) * 50);

const at = <T extends Fact>(severity: number, f: T): TakeStatement => ({ ...f, severity });

/** Statement ids (by prefix) per sub-score: which part of the score a statement is advice about. */
const AREA_OF: ReadonlyArray<[prefix: string, area: keyof SubScores]> = [
  ['take.emotion.', 'emotion'],
  ['take.pitch.', 'intonation'],
  ['take.good.melody', 'intonation'],
  ['take.good.pitchAlone', 'intonation'],
  ['take.loudness.', 'energy'],
  ['take.good.loudness', 'energy'],
  ['take.pace.', 'timing'],
  ['take.start.', 'timing'],
  ['take.pauses.', 'timing'],
  ['take.good.pace', 'timing'],
  ['take.tooQuiet', 'quality'],
  ['take.clipped', 'quality'],
  ['take.noisy', 'quality'],
];

/** The sub-score a take statement is about (null: none, e.g. "no speech heard"). */
export function statementArea(id: string): keyof SubScores | null {
  return AREA_OF.find(([prefix]) => id.startsWith(prefix))?.[1] ?? null;
}

function qualityTips(input: TipInput): TakeStatement[] {
  const q = input.learner.quality;
  const out: TakeStatement[] = [];
  if (!input.flags.speechDetected) return [at(1, fact('take.noSpeech'))];
  if (input.flags.tooQuiet) {
    out.push(at(0.8, fact('take.tooQuiet', { peakPercent: r1(100 * 10 ** (q.peakDbfs / 20)) })));
  }
  if (input.flags.clipped) {
    out.push(at(0.7, fact('take.clipped', { clippedPercent: r2(q.clippedFraction * 100) })));
  }
  if (input.flags.noisy && q.snrDb !== null) {
    out.push(at(0.6, fact('take.noisy', { snrDb: Math.round(q.snrDb) })));
  }
  return out;
}

/**
 * The emotion statement: how forceful the take is (the arousal reading, shown as a 0–100
 * intensity) against the actor's or the target emotion's, and which way to move. It advises only on
 * force (louder/softer), never on pitch, which has its own statement with its own figure.
 */
function emotionTips(input: TipInput): TakeStatement[] {
  const { match, emotion, named, confidence } = input;
  if (!match.target || match.arousalGap === null || !match.goal) return [];
  const severity = WEIGHTS.emotion * (1 - match.score / 100);
  const common = {
    learner: intensity(emotion.arousal),
    goal: intensity(match.goal.arousal),
    source: match.targetSource === 'actor' ? 'actor' : 'target',
    target: emotionName(match.target),
  };
  const gap = match.arousalGap;
  if (Math.abs(gap) <= AROUSAL_TOLERANCE) {
    const heard = heardFact(emotion.detected, named, confidence ?? undefined);
    // With the force right, a failing score means the model did not hear the target class most
    // (emotion-match.ts): said as a problem, never as the good news "lands" is.
    if (match.score < EMOTION_PASS) return [at(severity, fact('take.emotion.notYet', { ...common, heard }))];
    return [at(severity * 0.5, fact('take.emotion.lands', { ...common, heard }))];
  }
  return [at(severity, fact(gap < 0 ? 'take.emotion.moreEnergy' : 'take.emotion.lessEnergy', common))];
}

function intonationTips(input: TipInput): TakeStatement[] {
  const c = input.comparison;
  const out: TakeStatement[] = [];
  if (!c) {
    const range = input.solo.pitchRangeSt;
    if (range !== null && range < SOLO.pitchTipSt) {
      out.push(
        at(
          WEIGHTS.intonation * (1 - input.parts.intonation.range),
          fact('take.pitch.flat', { learner: r1(range) }),
        ),
      );
    }
    return out;
  }
  const i = c.intonation;
  const p = input.parts.intonation;
  if (i.learnerRangeSt !== null && i.actorRangeSt !== null && p.range < 0.85) {
    const values = { learner: r1(i.learnerRangeSt), actor: r1(i.actorRangeSt) };
    if (values.learner !== values.actor) {
      out.push(
        at(
          WEIGHTS.intonation * 0.3 * (1 - p.range),
          fact(values.learner < values.actor ? 'take.pitch.narrower' : 'take.pitch.wider', values),
        ),
      );
    }
  }
  const le = i.learnerEndMoveSt;
  const ae = i.actorEndMoveSt;
  if (le !== null && ae !== null && Math.abs(le - ae) >= 2.5 && Math.sign(le) !== Math.sign(ae)) {
    out.push(
      at(
        WEIGHTS.intonation * 0.35 * Math.min(1, Math.abs(le - ae) / 6),
        fact('take.pitch.ending', {
          actorDirection: ae > 0 ? 'rise' : 'fall',
          actorSt: r1(Math.abs(ae)),
          learnerDirection: le > 0 ? 'rise' : 'fall',
          learnerSt: r1(Math.abs(le)),
        }),
      ),
    );
  }
  if ((p.shape < 0.6 || p.distance < 0.6) && i.correlation !== null && Number.isFinite(i.distanceSt)) {
    out.push(
      at(
        WEIGHTS.intonation * (0.3 * (1 - p.shape) + 0.4 * (1 - p.distance)),
        fact('take.pitch.shape', { gapSt: r1(i.distanceSt) }),
      ),
    );
  }
  return out;
}

function energyTips(input: TipInput): TakeStatement[] {
  const c = input.comparison;
  if (!c) {
    const range = input.solo.loudnessRangeDb;
    if (range >= SOLO.loudTipDb) return [];
    return [
      at(
        WEIGHTS.energy * (1 - input.parts.energy.range),
        fact('take.loudness.flat', { learner: Math.round(range) }),
      ),
    ];
  }
  const e = c.energy;
  const p = input.parts.energy;
  const out: TakeStatement[] = [];
  const values = { learner: Math.round(e.learnerRangeDb), actor: Math.round(e.actorRangeDb) };
  if (p.range < 0.8 && values.learner !== values.actor) {
    out.push(
      at(
        WEIGHTS.energy * 0.3 * (1 - p.range),
        fact(values.learner < values.actor ? 'take.loudness.narrower' : 'take.loudness.wider', values),
      ),
    );
  }
  if ((p.shape < 0.55 || p.distance < 0.55) && e.correlation !== null) {
    out.push(
      at(
        WEIGHTS.energy * (0.3 * (1 - p.shape) + 0.4 * (1 - p.distance)),
        fact('take.loudness.stress', { gapDb: Math.round(e.distanceDb) }),
      ),
    );
  }
  return out;
}

/** The seconds each voice took to say the line (onset to offset): the quantity the pace statements name. */
function spans(input: TipInput): { learnerSeconds: number; actorSeconds: number } | null {
  if (!input.actor) return null;
  return { learnerSeconds: r1(speechSpan(input.learner)), actorSeconds: r1(speechSpan(input.actor)) };
}

function timingTips(input: TipInput): TakeStatement[] {
  const c = input.comparison;
  const p = input.parts.timing;
  const out: TakeStatement[] = [];
  if (!c) {
    const rate = input.learner.figures.syllablesPerSecond;
    if (rate !== null && p.duration < 0.8) {
      out.push(
        at(
          WEIGHTS.timing * 0.45 * (1 - p.duration),
          fact(rate < 2.5 ? 'take.pace.slowAlone' : 'take.pace.fastAlone', { rate: r1(rate) }),
        ),
      );
    }
    return out;
  }
  const t = c.timing;
  const seconds = spans(input);
  if (p.duration < 0.8 && seconds && seconds.learnerSeconds !== seconds.actorSeconds) {
    out.push(
      at(
        WEIGHTS.timing * 0.45 * (1 - p.duration),
        fact(
          seconds.learnerSeconds > seconds.actorSeconds ? 'take.pace.slower' : 'take.pace.faster',
          seconds,
        ),
      ),
    );
  }
  const delay = r1(t.onsetDelaySeconds);
  if (p.onset < 0.8 && delay !== 0) {
    out.push(
      at(
        WEIGHTS.timing * 0.3 * (1 - p.onset),
        fact(delay > 0 ? 'take.start.late' : 'take.start.early', { seconds: Math.abs(delay) }),
      ),
    );
  }
  if (t.missingPauses > 0 && t.actorPauses.length > 0) {
    out.push(
      at(
        WEIGHTS.timing * 0.25 * (1 - p.pauses),
        fact('take.pauses.missing', {
          at: t.actorPauses.map((x) => `${Math.round(x * 100)}%`).join(' / '),
          count: t.missingPauses,
        }),
      ),
    );
  } else if (t.extraPauses > 0) {
    out.push(at(WEIGHTS.timing * 0.25 * (1 - p.pauses), fact('take.pauses.extra', { count: t.extraPauses })));
  }
  return out;
}

/** What went well, with numbers, to fill up to MIN_TIPS when there are few problems. */
function strengthTips(input: TipInput): TakeStatement[] {
  const out: TakeStatement[] = [];
  const c = input.comparison;
  if (c) {
    if (c.intonation.voicedPairs >= 5 && Number.isFinite(c.intonation.distanceSt)) {
      out.push(
        at(
          -input.parts.intonation.distance,
          fact('take.good.melody', { gapSt: r1(c.intonation.distanceSt) }),
        ),
      );
    }
    const seconds = spans(input);
    if (seconds) out.push(at(-input.parts.timing.duration, fact('take.good.pace', seconds)));
    out.push(
      at(
        -input.parts.energy.range,
        fact('take.good.loudness', {
          learner: Math.round(c.energy.learnerRangeDb),
          actor: Math.round(c.energy.actorRangeDb),
        }),
      ),
    );
  } else {
    if (input.solo.pitchRangeSt !== null) {
      out.push(
        at(
          -input.parts.intonation.range,
          fact('take.good.pitchAlone', { learner: r1(input.solo.pitchRangeSt) }),
        ),
      );
    }
    out.push(
      at(
        -input.parts.energy.range,
        fact('take.good.loudnessAlone', { learner: Math.round(input.solo.loudnessRangeDb) }),
      ),
    );
  }
  return out.sort((a, b) => a.severity - b.severity);
}

const rounded = (s: TakeStatement): TakeStatement => ({
  ...s,
  severity: Math.round(s.severity * 1000) / 1000,
});

/** The take's statements, most severe first (a silent take gets the one that asks for a retake). */
export function buildTips(input: TipInput): TakeStatement[] {
  const quality = qualityTips(input);
  if (!input.flags.speechDetected) return quality.map(rounded);
  const problems = [
    ...quality,
    ...emotionTips(input),
    ...intonationTips(input),
    ...energyTips(input),
    ...timingTips(input),
  ]
    .filter((t) => t.severity >= PROBLEM_THRESHOLD || quality.includes(t))
    .sort((a, b) => b.severity - a.severity)
    .slice(0, MAX_TIPS);
  const chosen = [...problems];
  if (chosen.length < MIN_TIPS) {
    // The emotion statement is worth saying even when it is good news.
    const praise = [
      ...emotionTips(input).filter((t) => !chosen.some((c) => c.id === t.id)),
      ...strengthTips(input),
    ];
    for (const t of praise) {
      if (chosen.length >= MIN_TIPS) break;
      if (!chosen.some((c) => c.id === t.id)) chosen.push(t);
    }
  }
  return chosen.map(rounded);
}
