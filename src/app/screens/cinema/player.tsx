import { type KeyboardEvent, useId, useState } from 'react';
import type { Subtitle } from '../../../api/contract';
import type { Lang } from '../../i18n';
import { Button } from '../../ui/button';
import { CaptionsIcon, PauseIcon, PlayIcon } from '../../ui/icons';
import { clockSeconds } from '../../lib/format';
import { type Translate, useT } from '../../i18n/use-t';
import { type CaptionMode, captionTexts, lineAt } from './captions';
import styles from './player.module.css';
import type { useMedia } from './use-media';

export interface PlayerProps {
  media: ReturnType<typeof useMedia>;
  src: string;
  poster?: string;
  /** WebVTT of the original text, for assistive tech and browsers' own caption settings. */
  track: string;
  trackLang: string;
  title: string;
  lines: readonly Subtitle[];
}

const MODES: CaptionMode[] = ['both', 'original', 'translation'];

/**
 * The clip with a custom caption layer (original and translation together, which native captions
 * cannot do), subtitles on/off, seek, ±5 s. Space/K plays and pauses, arrows seek when the stage
 * has focus; the range input keeps its own arrow keys.
 */
export function Player({ media, src, poster, track, trackLang, title, lines }: PlayerProps) {
  const { t, lang } = useT();
  const id = useId();
  const [captionsOn, setCaptionsOn] = useState(true);
  const [mode, setMode] = useState<CaptionMode>('both');
  const line = captionsOn ? lineAt(lines, media.time) : null;
  const texts = line ? captionTexts(line, mode, lang as Lang) : null;
  const total = media.duration || (lines.length ? lines[lines.length - 1].endMs / 1000 : 0);

  const onKey = (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLButtonElement) return;
    if (e.key === ' ' || e.key === 'k') {
      e.preventDefault();
      media.toggle();
    } else if (e.key === 'ArrowLeft') media.seek(media.time - 5);
    else if (e.key === 'ArrowRight') media.seek(media.time + 5);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keyboard shortcuts for the whole player; every action also has a button
    <div className={styles.player} onKeyDown={onKey}>
      <div className={styles.stage}>
        <video
          ref={media.ref}
          className={styles.video}
          src={src}
          poster={poster}
          preload="metadata"
          playsInline
          // Focusable so Space/K and the arrows work on the picture itself (the shortcuts above).
          tabIndex={0}
          aria-label={t('cinema.videoLabel', { title })}
          onClick={media.toggle}
        >
          <track kind="captions" src={track} srcLang={trackLang} label={title} />
        </video>
        {texts ? <CaptionLayer speaker={line?.speaker} texts={texts} /> : null}
      </div>
      <div className={styles.controls}>
        <Button
          variant="primary"
          className={styles.play}
          onClick={media.toggle}
          aria-label={media.playing ? t('cinema.pause') : t('cinema.play')}
          icon={media.playing ? <PauseIcon /> : <PlayIcon />}
        />
        <Button variant="ghost" size="sm" onClick={() => media.seek(media.time - 5)}>
          {/* Visible "−5s" with the spoken name beside it, not an aria-label that hides the visible text
              (WCAG 2.5.3 label in name; axe label-content-name-mismatch). */}
          <span aria-hidden="true">−5s</span>
          <span className="visually-hidden">{t('cinema.back10')}</span>
        </Button>
        <SeekBar media={media} total={total} t={t} />
        <Button variant="ghost" size="sm" onClick={() => media.seek(media.time + 5)}>
          {/* Visible "+5s" with the spoken name beside it, not an aria-label that hides the visible text
              (WCAG 2.5.3 label in name; axe label-content-name-mismatch). */}
          <span aria-hidden="true">+5s</span>
          <span className="visually-hidden">{t('cinema.fwd10')}</span>
        </Button>
        <Button
          variant={captionsOn ? 'secondary' : 'ghost'}
          size="sm"
          aria-pressed={captionsOn}
          icon={<CaptionsIcon />}
          onClick={() => setCaptionsOn((v) => !v)}
        >
          {captionsOn ? t('cinema.captionsOn') : t('cinema.captionsOff')}
        </Button>
        {captionsOn ? <CaptionModes name={`${id}-mode`} mode={mode} onChange={setMode} t={t} /> : null}
      </div>
    </div>
  );
}

/** The line playing, drawn over the picture: the original (with its speaker) and the translation. */
function CaptionLayer({
  speaker,
  texts,
}: {
  speaker: string | undefined;
  texts: NonNullable<ReturnType<typeof captionTexts>>;
}) {
  return (
    <div className={styles.captions} aria-hidden="true" data-testid="caption-layer">
      {texts.original ? (
        <span className={styles.captionLine}>
          {speaker ? <span className={styles.speaker}>{speaker}</span> : null}
          {texts.original}
        </span>
      ) : null}
      {texts.translation ? (
        <span className={`${styles.captionLine} ${styles.captionTranslation}`}>{texts.translation}</span>
      ) : null}
    </div>
  );
}

/** The clip's position as a range to drag, and as time played over the clip's length. */
function SeekBar({ media, total, t }: { media: ReturnType<typeof useMedia>; total: number; t: Translate }) {
  return (
    <div className={styles.seek}>
      <input
        className={styles.range}
        type="range"
        min={0}
        max={Math.max(total, 0.1)}
        step={0.1}
        value={Math.min(media.time, total || 0)}
        aria-label={t('cinema.seek')}
        aria-valuetext={`${clockSeconds(media.time)} / ${clockSeconds(total)}`}
        onChange={(e) => media.seek(Number(e.target.value))}
      />
      <span className={styles.time} aria-hidden="true">
        {clockSeconds(media.time)} / {clockSeconds(total)}
      </span>
    </div>
  );
}

/** Which captions show: both texts, the original only, or the translation only. */
function CaptionModes({
  name,
  mode,
  onChange,
  t,
}: {
  name: string;
  mode: CaptionMode;
  onChange: (mode: CaptionMode) => void;
  t: Translate;
}) {
  return (
    <fieldset className={styles.modes}>
      <legend className="visually-hidden">{t('cinema.captionMode')}</legend>
      {MODES.map((m) => (
        <label key={m} className={styles.mode}>
          <input type="radio" name={name} value={m} checked={mode === m} onChange={() => onChange(m)} />
          {t(`cinema.mode.${m}`)}
        </label>
      ))}
    </fieldset>
  );
}
