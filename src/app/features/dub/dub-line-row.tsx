import { computed, type ReadonlySignal, useComputed } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { memo, useId, useLayoutEffect, useMemo, useState } from 'react';
import { parseSpeechScore } from '../../../api/contract/parse-score';
import { prefixImage } from '../../../api/image';
import { secondsToMmss } from '../../../audio/dsp/time';
import { fact, word } from '../../../i18n';
import { lang, t } from '../../i18n';
import type { SubtitleLine } from '../../lib/movie-detail';
import {
  attemptsUsed,
  playableSource,
  type SubtitleScore,
  subTitlesScores,
} from '../../stores/takes/sub-titles-scores';
import { Button, type ButtonProps } from '../../ui/button';
import { ScoreBadge } from '../../ui/score-badge';
import styles from './dub.module.css';
import { type LineState, lineStateOf } from '../../stores/uploads/line-state';
import { LineScoreDetail } from './line-score-detail';
import { lineEvents } from './line-events';
import { useSignalLater } from './use-signal-later';

export interface DubLineRowProps {
  line: SubtitleLine;
  /**
   * The clip position in seconds. Each row derives its own `active` from it, so a clip-time change
   * re-renders only the rows whose active state flips, not the page and every row.
   */
  clipTime: ReadonlySignal<number>;
  /** True while a take runs. Read only by the row's buttons that it disables (see `IdleButton`). */
  busy: ReadonlySignal<boolean>;
  onRecord: (line: SubtitleLine) => void;
  onListen: (line: SubtitleLine) => void;
  onRetry: (line: SubtitleLine) => void;
  onPlay: (url: string) => void;
}

function stageLabel(state: LineState): string {
  if (state.stage === 'uploading' && typeof state.progress === 'number') {
    return `${t('dub.uploading')} ${Math.round(state.progress * 100)}%`;
  }
  if (state.stage === 'queued' && state.retryAt) {
    const s = Math.max(0, Math.ceil((state.retryAt - Date.now()) / 1000));
    return `${t('dub.queued')} · ${t('dub.retryIn', { s })}`;
  }
  // A take stopped before this line ended: it was never sent, so it did not fail to upload.
  if (state.stage === 'failed' && state.message === 'incomplete') return t('dub.cut');
  return t(`dub.${state.stage}`);
}

/** A stored take: its score, or null; `silent` when it heard no speech (no score: src/audio/scoring/aggregate.ts). */
function takeOf(json: string | undefined): { overall: number | null; silent: boolean } {
  const score = parseSpeechScore(json);
  if (score?.quality.speechDetected === false) return { overall: null, silent: true };
  return { overall: score?.overall ?? null, silent: false };
}

/** One attempt's score badge, or "no speech heard" for a take without speech. */
function AttemptBadge({ take, label }: { take: { overall: number | null; silent: boolean }; label: string }) {
  if (take.silent) {
    return (
      <span className={styles.chip} data-stage="failed" data-silent="true">
        {label} · {word(fact('take.row.noSpeech'), lang.value)}
      </span>
    );
  }
  return <ScoreBadge score={take.overall} label={`${label} ${take.overall ?? ''}`} />;
}

/**
 * One take as one group: its score and its play button together, named by the take ("First"), so on a
 * phone's wrapped row a score is never read as the neighbouring take's.
 */
function Take({
  n,
  take,
  source,
  onPlay,
}: {
  n: 1 | 2;
  take: { overall: number | null; silent: boolean };
  source: string;
  onPlay: (url: string) => void;
}) {
  const label = t(`dub.attempt${n}`);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of two controls inline in a row, not a form fieldset
    <span className={styles.take} role="group" aria-label={label} data-take={n}>
      <AttemptBadge take={take} label={label} />
      {source ? (
        <Button size="sm" variant="ghost" onClick={() => onPlay(source)}>
          {t('dub.play')} {n}
        </Button>
      ) : null}
    </span>
  );
}

const scoreSignals = new Map<string, ReadonlySignal<SubtitleScore | undefined>>();

/** The line's own score entry: recordAttempt replaces only the changed entry, so others stay quiet. */
function scoreOf(id: string): ReadonlySignal<SubtitleScore | undefined> {
  let s = scoreSignals.get(id);
  if (!s) {
    s = computed(() => subTitlesScores.value[id]);
    scoreSignals.set(id, s);
  }
  return s;
}

/**
 * A button disabled while a take runs. Its own component, subscribed to `busy`: starting or ending a
 * take re-renders these buttons only, not every row (that made the Scene take click a long task).
 * Rendered at once, not in a transition: a button must never look pressable while a take runs (the
 * press would be ignored, and the tests wait for it to be enabled after a take).
 */
function IdleButton({ busy, ...props }: ButtonProps & { busy: ReadonlySignal<boolean> }) {
  useSignals();
  return <Button {...props} disabled={busy.value} />;
}

/** A take of this line, parsed once per stored JSON (not on every stage or progress change of the row). */
function useLineTakes(entry: SubtitleScore | undefined) {
  const firstJson = entry?.firstUserAudioJson;
  const secondJson = entry?.secondUserAudioJson;
  const firstTake = useMemo(() => takeOf(firstJson), [firstJson]);
  const secondTake = useMemo(() => takeOf(secondJson), [secondJson]);
  // The latest take counts (aggregate.ts): a silent one asks for a retake.
  const latestSilent = secondJson ? secondTake.silent : firstTake.silent;
  const source1 = useMemo(() => (entry ? playableSource(entry, 1) : ''), [entry]);
  const source2 = useMemo(() => (entry ? playableSource(entry, 2) : ''), [entry]);
  return { firstTake, secondTake, hasSecond: !!secondJson, latestSilent, source1, source2 };
}

type LineTakes = ReturnType<typeof useLineTakes>;

/** The line's takes, each its score and play button: the first, and the second once there is one. */
function Takes({ takes, onPlay }: { takes: LineTakes; onPlay: (url: string) => void }) {
  return (
    <>
      <Take n={1} take={takes.firstTake} source={takes.source1} onPlay={onPlay} />
      {takes.hasSecond ? <Take n={2} take={takes.secondTake} source={takes.source2} onPlay={onPlay} /> : null}
    </>
  );
}

/** The line's window (start and end) and its text, with the translation in the learner's language. */
function LineText({ line }: { line: SubtitleLine }) {
  return (
    <>
      <span className={styles.time}>
        {secondsToMmss(line.startTime_m)}
        <br />
        {secondsToMmss(line.endTime_m)}
      </span>
      <span className={styles.text}>
        <span>{line.text}</span>
        {line.translation?.[lang.value] ? (
          <span className={styles.translation}>{line.translation[lang.value]}</span>
        ) : null}
      </span>
    </>
  );
}

/** Where the line's take is in the pipeline (with the upload's progress); `silent`: scored, no speech heard. */
function StageChip({ state, silent }: { state: LineState; silent: boolean }) {
  return (
    <>
      <span
        className={styles.chip}
        data-stage={state.stage}
        data-silent={silent ? true : undefined}
        role="status"
      >
        {silent ? word(fact('take.row.noSpeech'), lang.value) : stageLabel(state)}
      </span>
      {state.stage === 'uploading' && typeof state.progress === 'number' ? (
        <progress className={styles.progress} max={1} value={state.progress} />
      ) : null}
    </>
  );
}

/** Under the row: a retake asked for after a take without speech, or the pipeline's message. */
function LineNotes({ state, silent }: { state: LineState; silent: boolean }) {
  const message = state.message === 'incomplete' ? t('dub.incomplete') : state.message;
  return (
    <>
      {silent ? (
        <span className={`${styles.hint} ${styles.detail}`} role="alert">
          {t('dub.noSpeechRetake')}
        </span>
      ) : null}
      {message && state.stage !== 'scored' ? (
        <span className={`${styles.hint} ${styles.detail}`}>{message}</span>
      ) : null}
    </>
  );
}

/**
 * The row's live state, each part rendered by React's scheduler (`useSignalLater`) rather than in the
 * task that wrote it: whether the clip is inside the line, its stored scores and its pipeline stage
 * (these two at normal priority: the learner waits for them). Tells the pipeline timing once a score
 * is painted.
 */
function useRowState(line: SubtitleLine, clipTime: ReadonlySignal<number>) {
  // The labels (`dt`) follow the language: a switch re-renders the row, like any other update of it.
  useSignalLater(lang);
  const active = useSignalLater(
    useComputed(() => clipTime.value >= line.startTime_m && clipTime.value < line.endTime_m),
  );
  const entry = useSignalLater(scoreOf(line.id), 'default');
  const state: LineState = useSignalLater(lineStateOf(line.id), 'default') ?? {
    stage: entry ? 'scored' : 'idle',
  };
  // The score is on screen once this commit is painted: the pipeline timing measures line end → here.
  useLayoutEffect(() => {
    if (state.stage === 'scored' && entry) lineEvents.emit('shown', { subtitlesId: line.id });
  }, [state.stage, entry, line.id]);
  return { active, entry, state };
}

/** Shows or hides the line's score detail (`detailId`). */
function DetailsToggle({
  lineId,
  detailId,
  open,
  onToggle,
}: {
  lineId: string;
  detailId: string;
  open: boolean;
  onToggle: () => void;
}) {
  return (
    <Button
      size="sm"
      variant="ghost"
      aria-expanded={open}
      aria-controls={detailId}
      onClick={onToggle}
      data-testid={`details-${lineId}`}
    >
      {open ? t('dub.hideDetails') : t('dub.details')}
    </Button>
  );
}

/**
 * Record the line (retake once it has a take; the main action after a take without speech), or, once
 * the spec's first and second attempt are both recorded, say so: no third (the server refuses it).
 */
function RecordButton({
  line,
  entry,
  silent,
  busy,
  onRecord,
}: {
  line: SubtitleLine;
  entry: SubtitleScore | undefined;
  silent: boolean;
  busy: ReadonlySignal<boolean>;
  onRecord: (line: SubtitleLine) => void;
}) {
  if (attemptsUsed(entry)) {
    return (
      <span className={styles.attemptsUsed} data-testid={`attempts-used-${line.id}`}>
        {t('dub.attemptsUsed')}
      </span>
    );
  }
  return (
    <IdleButton
      busy={busy}
      size="sm"
      variant={silent ? 'primary' : 'secondary'}
      onClick={() => onRecord(line)}
      data-testid={`record-${line.id}`}
    >
      {entry ? t('dub.retake') : t('dub.record')}
    </IdleButton>
  );
}

/**
 * One subtitle line: its text and window, where its take is in the pipeline, its scores and actions.
 * Memoised and subscribed to its own line only (useRowState), so the main thread stays idle while a
 * take runs.
 */
export const DubLineRow = memo(function DubLineRow({
  line,
  clipTime,
  busy,
  onRecord,
  onListen,
  onRetry,
  onPlay,
}: DubLineRowProps) {
  const { active, entry, state } = useRowState(line, clipTime);
  const takes = useLineTakes(entry);
  const { firstTake, secondTake, latestSilent } = takes;
  const silentScored = latestSilent && state.stage === 'scored';
  const [open, setOpen] = useState(false);
  const detailId = useId();
  return (
    <li
      className={styles.line}
      data-testid={`line-${line.id}`}
      data-stage={state.stage}
      data-active={active}
      data-silent={latestSilent || undefined}
    >
      <LineText line={line} />
      <span className={styles.status}>
        <StageChip state={state} silent={silentScored} />
        {entry ? <Takes takes={takes} onPlay={onPlay} /> : null}
        {line.referenceAudio ? (
          <IdleButton busy={busy} size="sm" variant="ghost" onClick={() => onListen(line)}>
            {t('dub.listen')}
          </IdleButton>
        ) : null}
        {state.stage === 'failed' && state.message !== 'incomplete' ? (
          <Button size="sm" variant="danger" onClick={() => onRetry(line)}>
            {t('dub.retry')}
          </Button>
        ) : null}
        {entry && (firstTake.overall !== null || secondTake.overall !== null || latestSilent) ? (
          <DetailsToggle
            lineId={line.id}
            detailId={detailId}
            open={open}
            onToggle={() => setOpen((v) => !v)}
          />
        ) : null}
        <RecordButton line={line} entry={entry} silent={latestSilent} busy={busy} onRecord={onRecord} />
      </span>
      {open && entry ? (
        <div id={detailId} className={styles.detail}>
          <LineScoreDetail
            firstJson={entry.firstUserAudioJson}
            secondJson={entry.secondUserAudioJson}
            actorUrl={line.referenceAudio ? prefixImage(line.referenceAudio) : null}
            takeUrl={(takes.hasSecond ? takes.source2 : takes.source1) || null}
          />
        </div>
      ) : null}
      <LineNotes state={state} silent={silentScored} />
    </li>
  );
});
