import type { Emotion, Localized } from '../../api/contract';

export const EMOTION_LABELS: Record<Emotion, Localized> = {
  anger: { zh: '愤怒', en: 'anger' },
  boredom: { zh: '厌倦', en: 'boredom' },
  disgust: { zh: '厌恶', en: 'disgust' },
  fear: { zh: '恐惧', en: 'fear' },
  happiness: { zh: '喜悦', en: 'happiness' },
  sadness: { zh: '悲伤', en: 'sadness' },
  neutral: { zh: '平静', en: 'neutral' },
};

/** Formats a number for a tip: fixed digits, no "-0". */
export function fmt(value: number, digits = 1): string {
  const text = value.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

export function pct(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** What a learner is told when the category reading is not sure enough to name (see emotionVerdict). */
export const NO_CLEAR_EMOTION: Localized = { zh: '听不出明显的情绪', en: 'no clear emotion heard' };

/**
 * The heard emotion as a learner may be told it: its name only when the reading is clear (the
 * calibrated confidence reached the model's label threshold), else "no clear emotion heard".
 * Results written before confidence existed (no `clear`) are treated as not clear.
 */
export function emotionVerdict(detected: Emotion, clear: boolean | undefined): Localized {
  return clear ? EMOTION_LABELS[detected] : NO_CLEAR_EMOTION;
}

/** Arousal gaps (on the −1…1 scale) smaller than this count as "about the same energy". */
export const AROUSAL_TOLERANCE = 0.25;

/**
 * Which way the learner's energy should move, worded against the target (`who`: "the actor", or
 * the line's target emotion by name); null when the gap is within AROUSAL_TOLERANCE.
 */
export function energyAdvice(gap: number, who: Localized): Localized | null {
  if (Math.abs(gap) <= AROUSAL_TOLERANCE) return null;
  return gap < 0
    ? { zh: `更有力一些：能量比${who.zh}低`, en: `More energy: yours is below ${who.en}` }
    : { zh: `收一些能量：比${who.zh}高`, en: `Less energy: yours is above ${who.en}` };
}

/** Shown with the sub-scores of a take compared with an actor (SpeechScore.deliveryLikeness). */
export const DELIVERY_LIKENESS_NOTE: Localized = {
  zh: '语调、能量、节奏衡量的是与演员表演方式的相似度，不是情绪本身。',
  en: "Intonation, energy and timing measure how closely you follow the actor's delivery, not the emotion itself.",
};
