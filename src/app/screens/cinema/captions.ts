import type { Subtitle } from '../../../api/contract';
import type { Lang } from '../../i18n';

export type CaptionMode = 'both' | 'original' | 'translation';

/** The line on screen at `seconds` (windows are [start, end)); null between lines. */
export function lineAt<T extends Pick<Subtitle, 'startMs' | 'endMs'>>(
  lines: readonly T[],
  seconds: number,
): T | null {
  const ms = seconds * 1000;
  for (const line of lines) if (ms >= line.startMs && ms < line.endMs) return line;
  return null;
}

/**
 * The texts to draw for a line: the original, and the translation in the UI language unless it
 * repeats the original (a Chinese film watched in Chinese needs no second line).
 */
export function captionTexts(line: Pick<Subtitle, 'text' | 'translation'>, mode: CaptionMode, lang: Lang) {
  const translation = line.translation[lang] || line.translation.zh || line.translation.en;
  const showTranslation = mode !== 'original' && translation && translation !== line.text;
  return {
    original: mode === 'translation' && showTranslation ? null : line.text,
    translation: showTranslation ? translation : null,
  };
}
