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
