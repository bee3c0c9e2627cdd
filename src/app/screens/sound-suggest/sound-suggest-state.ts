import { signal } from '@preact/signals-react';
import { getSoundSuggest } from '../../../api/calls';
import { ApiError } from '../../../api/errors';
import type { SoundSuggestData } from '../../../api/contract';
import { makeLoader } from '../../stores/loader';
import { onClearLocalData } from '../../stores/session';
import { readJson, writeJson } from '../../stores/storage';
import { scoresRunOf } from '../../stores/takes/sub-titles-scores';

/**
 * soundSuggest (prpt, docs/api.md "get_sounds_interpretation"): the server's fields plus `lines`, audioInterpret split at
 * newlines with empty lines dropped. Kept in sessionStorage, so a reload keeps it.
 */
export type SoundSuggest = SoundSuggestData & { lines: string[] };
export const SOUND_SUGGEST_KEY = 'prpt.soundSuggest';

export function splitLines(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

export const soundSuggest = signal<SoundSuggest | null>(
  readJson<SoundSuggest>(sessionStorage, SOUND_SUGGEST_KEY),
);

export function setSoundSuggest(data: SoundSuggestData | null): void {
  const value = data ? { ...data, lines: splitLines(data.audioInterpret) } : null;
  soundSuggest.value = value;
  writeJson(sessionStorage, SOUND_SUGGEST_KEY, value);
}

/** The suggestion of the run the dub screen showed for this film (else the service's latest run). */
export const loadSoundSuggest = makeLoader(
  'prpt sound suggestion',
  (filmId: string, lang: 'zh' | 'en' = 'zh') => {
    const runId = scoresRunOf(filmId);
    return getSoundSuggest(runId ? { filmId, lang, runId } : { filmId, lang });
  },
  setSoundSuggest,
  // No takes in the run yet: the screen's "no tips yet" state, not a failure to log.
  {
    is: (e) => e instanceof ApiError && (e.data as { msgId?: string } | null)?.msgId === 'error.noTakes',
    onNothing: () => setSoundSuggest(null),
  },
);

onClearLocalData(() => setSoundSuggest(null));
