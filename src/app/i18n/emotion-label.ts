import type { Emotion } from '../../api/contract';
import { EMOTION_LABELS } from '../../audio/scoring/labels';
import { type Lang, lang } from './index';

/**
 * An emotion's name for a label: the one map the app, the server's H5 pages and the scripts share
 * (src/audio/scoring/labels.ts), capitalised in English where it stands alone. Its own module so the
 * map stays out of the entry chunk: only screens off the first path name emotions.
 */
export function emotionLabel(emotion: Emotion, l: Lang = lang.value): string {
  const word = EMOTION_LABELS[emotion][l];
  return l === 'en' ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}
