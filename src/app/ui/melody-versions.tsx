import { useEffect, useState } from 'react';
import type { MelodyVersion } from '../../api/contract';
import { prefixImage } from '../../api/image';
import { fact, type Lang, word } from '../../i18n';
import { playClip, stopClip } from '../lib/clip-player';
import { Button } from './button';
import styles from './melody-versions.module.css';

type Version = 'actor' | 'take' | 'melody';

export interface MelodyVersionsProps {
  /** The actor's cut line, or null when the line has none. */
  actorUrl: string | null;
  /** The learner's take (a local or a server URL), or null. */
  takeUrl: string | null;
  /** The take with the actor's melody, or why not; absent on a take scored without it. */
  melody: MelodyVersion | undefined;
  lang: Lang;
  /** The group's name is already on screen (the report's disclosure): kept for screen readers only. */
  hideLegend?: boolean;
}

/**
 * A line three ways: the actor, the learner's take, and the take with the actor's melody
 * (src/audio/scoring/melody.ts). A take the server could not resynthesise says why in place of the
 * third button.
 */
export function MelodyVersions({ actorUrl, takeUrl, melody, lang, hideLegend }: MelodyVersionsProps) {
  const [playing, setPlaying] = useState<Version | null>(null);
  // Leaving the panel silences it.
  useEffect(() => () => stopClip(), []);
  const urls: Record<Version, string | null> = {
    actor: actorUrl,
    take: takeUrl,
    melody: melody?.status === 'ready' ? prefixImage(melody.url) : null,
  };
  const press = (version: Version) => {
    if (playing === version) return stopClip();
    const url = urls[version];
    if (!url) return;
    setPlaying(version);
    playClip(url, () => setPlaying((p) => (p === version ? null : p))).catch((e: unknown) => {
      console.error(`[melody] cannot play ${version}`, e);
      setPlaying((p) => (p === version ? null : p));
    });
  };
  const button = (version: Version, id: 'melody.actor' | 'melody.take' | 'melody.yours') =>
    urls[version] ? (
      <Button
        size="sm"
        variant={version === 'melody' ? 'primary' : 'secondary'}
        aria-pressed={playing === version}
        onClick={() => press(version)}
        data-testid={`melody-play-${version}`}
      >
        {word(fact(id), lang)}
      </Button>
    ) : null;
  return (
    <fieldset className={styles.versions} data-testid="melody-versions" data-playing={playing ?? undefined}>
      <legend className={hideLegend ? 'visually-hidden' : styles.legend}>
        {word(fact('melody.versions'), lang)}
      </legend>
      {button('actor', 'melody.actor')}
      {button('take', 'melody.take')}
      {melody?.status === 'unavailable' ? (
        <p className={styles.unavailable} data-testid="melody-unavailable">
          {word(fact(`melody.${melody.reason}`), lang)}
        </p>
      ) : (
        button('melody', 'melody.yours')
      )}
    </fieldset>
  );
}
