import { type ReadonlySignal, useComputed } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { lang, t } from '../../i18n';
import { originalLanguage, type SubtitleLine } from '../../lib/movie-detail';
import styles from './line-prompt.module.css';

/**
 * The line at the clip position, else the next one (null after the last): what the learner says
 * now or next.
 */
export function promptLine(
  lines: readonly SubtitleLine[],
  time: number,
): { line: SubtitleLine; now: boolean } | null {
  const now = lines.find((l) => time >= l.startTime_m && time < l.endTime_m);
  if (now) return { line: now, now: true };
  const next = lines.find((l) => l.startTime_m >= time);
  return next ? { line: next, now: false } : null;
}

/**
 * The cue to speak, large beside the video: the current line (else the next) with its speaker and its
 * translation in the UI language. A phone shows the clip's own caption at 9–10 px, too small to read
 * aloud from; this is the cue there and on the kiosk. It re-renders only when the line changes.
 */
export function LinePrompt({
  lines,
  clipTime,
}: {
  lines: readonly SubtitleLine[];
  clipTime: ReadonlySignal<number>;
}) {
  useSignals();
  const current = useComputed(() => promptLine(lines, clipTime.value));
  const c = current.value;
  if (!c) return null;
  const { line, now } = c;
  const translation = line.translation?.[lang.value];
  return (
    <section
      className={styles.prompt}
      aria-label={t('dub.prompt.label')}
      data-testid="line-prompt"
      data-line={line.id}
      data-now={now}
    >
      <p className={styles.kicker}>
        {now ? t('dub.prompt.now') : t('dub.prompt.next')}
        {line.speaker ? <span className={styles.speaker}> · {line.speaker}</span> : null}
      </p>
      <p className={styles.text} lang={originalLanguage([line])}>
        {line.text}
      </p>
      {translation && translation !== line.text ? <p className={styles.translation}>{translation}</p> : null}
    </section>
  );
}
