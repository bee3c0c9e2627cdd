import { type ReadonlySignal, type Signal, useComputed, useSignal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import {
  type RefObject,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { Link, useParams } from 'react-router-dom';
import { prefixImage } from '../../../api/image';
import { createRecorder } from '../../../audio/capture/create-recorder';
import { encoderBridge } from '../../../workers/encoder-bridge';
import { DebugOverlay } from '../../features/dub/debug-overlay';
import { DubLineRow, type DubLineRowProps } from '../../features/dub/dub-line-row';
import { takeSources, uploadQueue } from '../../stores/uploads/app-queue';
import type { UploadQueue } from '../../stores/uploads/upload-queue';
import { DubSession } from '../../features/dub/dub-session';
import styles from '../../features/dub/dub.module.css';
import { LevelMeter } from '../../features/dub/level-meter';
import { MicCheckPanel } from '../../features/dub/mic-check-panel';
import { PitchTrace } from '../../features/dub/pitch-trace';
import { PitchGuide } from '../../features/dub/pitch-guide';
import { WatchDubFromScores } from '../../features/watch-dub/watch-dub';
import { LeadInChoice } from '../../features/dub/lead-in-choice';
import { VoiceWarmup } from '../../features/dub/voice-warmup';
import { WordsNotChecked } from '../../features/dub/words-not-checked';
// Measures every line's stages from the data path's events (also without the debug overlay: the bench).
import '../../features/dub/pipeline-timing';
import { type MovieDetail, originalLanguage, type SubtitleLine } from '../../lib/movie-detail';
import { prpt } from '../../stores/films';
import { LinePrompt } from '../../features/dub/line-prompt';
import follow from '../../features/dub/line-prompt.module.css';
import { useFollowTake } from '../../features/dub/follow-take';
import { loadRunScores } from '../../stores/takes/runs';
import { filmTitle } from '../../lib/film-title';
import { Button, ButtonLink, buttonClass } from '../../ui/button';
import { ArrowLeftIcon } from '../../ui/icons';
import { PageHeader } from '../../ui/page-header';
import { EmptyState, LoadingState } from '../../ui/states';
import { lang, t } from '../../i18n';
import { PartSteps, type StepKey } from '../../ui/part-steps';
import { useLoad } from '../../lib/use-load';
import { paths } from '../../lib/paths';

/**
 * /prpt/dub/:id — dub the clip: a scene take of every line, or a retake of one line.
 *
 * The page itself reads no signal that changes during a take (only the film's detail): the take's
 * phase, count-down, queue depth and clip position are read by the small parts that show them, and
 * each row derives what it needs from them. So a phase change, a queue change or a `timeupdate`
 * re-renders only what changed, never the page with its rows and the debug overlay.
 */
export default function DubScreen() {
  useSignals();
  const { id = '' } = useParams();
  const video = useRef<HTMLVideoElement>(null);
  const pageRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  /** The clip position (s), from the video's `timeupdate`; rows mark themselves active from it. */
  const clipTime = useSignal(0);
  const queue = uploadQueue();
  const debug = useMemo(() => new URLSearchParams(location.search).get('debug') === 'pipeline', []);
  const { status, reload } = useLoad(() => prpt.loadMovieDetail(id), [id]);
  const { answered, done } = useRunAnswered(id);
  const session = useDubSession(id, queue);
  const rowActions = useRowActions(session, queue, video);

  const loaded = prpt.movieDetail.value;
  const detail = loaded && loaded.id === id ? loaded : null;
  const lines: SubtitleLine[] = useMemo(() => detail?.subtitlesList ?? [], [detail]);
  useFollowTake({ page: pageRef, stage: stageRef, phase: session.phase, clipTime, lines });

  if (!detail) {
    return (
      <DubNotLoaded failed={status === 'failed'} missing={prpt.missingFilm.value === id} onReload={reload} />
    );
  }

  return (
    // `screen` gives the page the gutters and width every other screen has (it touched both edges).
    <div ref={pageRef} className={`screen ${styles.page} ${follow.followPage}`} data-screen="dub">
      <PageHeader
        back={<BackLink filmId={id} answered={answered} />}
        eyebrow={filmTitle(detail, lang.value)}
        title={t('dub.title')}
        subtitle={t('dub.sceneTakeHint')}
        actions={<NextLink filmId={id} />}
      />
      <PartSteps part="prpt" current="dub" done={done} compact />
      <div ref={stageRef} className={`${styles.stage} ${follow.followStage}`}>
        <DubPlayer detail={detail} lines={lines} video={video} clipTime={clipTime} session={session} />
        <LinePrompt lines={lines} clipTime={clipTime} />
        <DubPanel session={session} queue={queue} video={video} detail={detail} filmId={id} />
      </div>
      <DubLines lines={lines} clipTime={clipTime} busy={session.busy} actions={rowActions} />
      {debug ? <DebugOverlay session={session} queue={queue} /> : null}
    </div>
  );
}

/** The film's dub session: one per film, disposed when the page leaves it. */
function useDubSession(filmId: string, queue: UploadQueue): DubSession {
  const session = useMemo(
    () =>
      new DubSession({
        filmId,
        queue,
        bridge: encoderBridge,
        createRecorder: () => createRecorder(),
        sources: takeSources,
      }),
    [filmId, queue],
  );
  useEffect(() => () => void session.dispose(), [session]);
  return session;
}

/**
 * Whether the film's latest run has its answers: the takes of that run are loaded (a new session
 * shows them, a new run starts with none), and its answers say which steps are done and where
 * "back" leads (never another film).
 */
function useRunAnswered(filmId: string): { answered: boolean; done: ReadonlySet<StepKey> } {
  const [answered, setAnswered] = useState(false);
  useLoad(async () => {
    setAnswered(false);
    const state = await loadRunScores(filmId);
    setAnswered(!!state?.answers && state.run?.filmId === filmId);
    return state;
  }, [filmId]);
  const done = useMemo(() => new Set<StepKey>(answered ? ['watch', 'answer', 'result'] : []), [answered]);
  return { answered, done };
}

type RowActions = Pick<DubLineRowProps, 'onRecord' | 'onListen' | 'onRetry' | 'onPlay'>;

/** Stable handlers: the rows are memoised and must not re-render because the page did. */
function useRowActions(
  session: DubSession,
  queue: UploadQueue,
  video: RefObject<HTMLVideoElement | null>,
): RowActions {
  const onListen = useCallback((line: SubtitleLine) => {
    void new Audio(prefixImage(line.referenceAudio))
      .play()
      .catch((e) => console.error('[dub] cannot play', e));
  }, []);
  const onPlay = useCallback((url: string) => {
    void new Audio(url).play().catch((e) => console.error('[dub] cannot play', e));
  }, []);
  const onRetry = useCallback(
    (line: SubtitleLine) => {
      for (const p of queue.pendingFor(line.id)) queue.retry(p.uploadId);
    },
    [queue],
  );
  const onRecord = useCallback(
    (line: SubtitleLine) => {
      if (video.current) void session.lineRetake(video.current, line);
    },
    [session, video],
  );
  return { onRecord, onListen, onRetry, onPlay };
}

/** The film's detail is not here: still loading, or it failed (the film is missing, or the load). */
function DubNotLoaded({
  failed,
  missing,
  onReload,
}: {
  failed: boolean;
  missing: boolean;
  onReload: () => void;
}) {
  useSignals();
  if (!failed) return <LoadingState label={t('dub.loading')} />;
  return (
    <EmptyState
      title={missing ? t('cinema.notFound') : t('ui.loadFailedTitle')}
      body={missing ? t('cinema.notFoundBody') : t('ui.loadFailedBody')}
      action={
        <Button variant="secondary" onClick={onReload}>
          {t('ui.reload')}
        </Button>
      }
    />
  );
}

/** Back to the film's result once answered, else to the film itself. */
function BackLink({ filmId, answered }: { filmId: string; answered: boolean }) {
  useSignals();
  return (
    <ButtonLink
      to={answered ? paths.result('prpt', filmId) : paths.cinema('prpt', filmId)}
      variant="ghost"
      size="sm"
      icon={<ArrowLeftIcon />}
      data-testid="dub-back"
    >
      {answered ? t('dub.back') : t('dub.backToFilm')}
    </ButtonLink>
  );
}

/** The clip with its subtitles track; its `timeupdate` moves `clipTime`. */
function DubPlayer({
  detail,
  lines,
  video,
  clipTime,
  session,
}: {
  detail: MovieDetail;
  lines: SubtitleLine[];
  video: RefObject<HTMLVideoElement | null>;
  clipTime: Signal<number>;
  session: DubSession;
}) {
  return (
    <div className={styles.player}>
      {/* biome-ignore lint/a11y/useMediaCaption: the track below carries the subtitles */}
      <video
        ref={video}
        src={prefixImage(detail.video)}
        playsInline
        preload="auto"
        onTimeUpdate={(e) => {
          clipTime.value = e.currentTarget.currentTime;
        }}
        data-testid="dub-video"
      >
        {detail.subtitlesTrack ? (
          <track
            kind="subtitles"
            src={prefixImage(detail.subtitlesTrack)}
            srcLang={originalLanguage(lines)}
            default
          />
        ) : null}
      </video>
      <TakeIndicator session={session} />
    </div>
  );
}

/**
 * Beside the clip: whether the words are checked, warm-up, take controls, microphone check, notices,
 * pitch guide and meters.
 */
function DubPanel({
  session,
  queue,
  video,
  detail,
  filmId,
}: {
  session: DubSession;
  queue: UploadQueue;
  video: RefObject<HTMLVideoElement | null>;
  detail: MovieDetail;
  filmId: string;
}) {
  useSignals();
  const lines = detail.subtitlesList;
  return (
    <div className={styles.panel}>
      {/* Before a take only, like the microphone check: during one the stage must stay short. */}
      <div className={follow.idleOnly}>
        <WordsNotChecked notChecked={detail.wordsNotChecked} />
        <VoiceWarmup busy={session.busy} />
      </div>
      <TakeControls session={session} video={video} lines={lines} />
      <div className={follow.idleOnly}>
        <MicCheckPanel session={session} />
      </div>
      <DubNotices session={session} queue={queue} />
      {/* The guide right under the controls: on a phone the stage (video, cue, panel) must show it
          during a take without scrolling (tests/e2e/phone-layout.test.ts). */}
      <PitchGuide session={session} video={video} lines={lines} label={t('pitchGuide.label')} />
      <div className={styles.meters}>
        <LevelMeter session={session} label={t('dub.level')} />
        <PitchTrace session={session} label={t('dub.pitch')} />
      </div>
      {/* Not for use during a take: hidden then, so the stage stays short (line-prompt.module.css). */}
      <div className={follow.idleOnly}>
        <WatchDubFromScores filmId={filmId} />
        <LeadInChoice />
      </div>
    </div>
  );
}

/** One row per line (each re-renders on its own: the rows are memoised). */
function DubLines({
  lines,
  clipTime,
  busy,
  actions,
}: {
  lines: SubtitleLine[];
  clipTime: ReadonlySignal<number>;
  busy: ReadonlySignal<boolean>;
  actions: RowActions;
}) {
  useSignals();
  if (lines.length === 0) return <EmptyState title={t('dub.noLines')} />;
  return (
    <ol className={styles.lines}>
      {lines.map((line) => (
        <DubLineRow key={line.id} line={line} clipTime={clipTime} busy={busy} {...actions} />
      ))}
    </ol>
  );
}

/**
 * On to the voice tips: always a secondary action. The page's one main (primary) action is the scene
 * take (TakeControls); a second orange button after the first score led phones to "See voice tips"
 * before the scene was dubbed.
 */
function NextLink({ filmId }: { filmId: string }) {
  return (
    <Link
      className={buttonClass({ variant: 'secondary' })}
      to={paths.soundSuggest(filmId)}
      data-variant="secondary"
      data-testid="dub-next"
    >
      {t('dub.next')}
    </Link>
  );
}

/**
 * Over the video: the count-in number only. The recording badge sits beside the Stop button, not over
 * the clip, where it covered the clip's own title on a phone.
 */
function TakeIndicator({ session }: { session: DubSession }) {
  useSignals();
  if (session.phase.value !== 'count-in') return null;
  return (
    <div className={styles.countIn} aria-live="assertive">
      {session.countdown.value}
    </div>
  );
}

/** Scene take (or Stop while a take runs) and the phase, which the tests and the bench watch. */
function TakeControls({
  session,
  video,
  lines,
}: {
  session: DubSession;
  video: RefObject<HTMLVideoElement | null>;
  lines: SubtitleLine[];
}) {
  useSignals();
  const phase = session.phase.value;
  return (
    <div className={styles.controls}>
      {phase !== 'idle' ? (
        <Button variant="danger" onClick={() => session.stop()} data-testid="dub-stop">
          {t('dub.stop')}
        </Button>
      ) : (
        <Button
          variant="primary"
          disabled={lines.length === 0}
          onClick={() => video.current && void session.sceneTake(video.current, lines)}
          data-testid="dub-scene-take"
        >
          {t('dub.sceneTake')}
        </Button>
      )}
      <span className={styles.hint} data-testid="dub-phase" data-phase={phase}>
        {phase === 'count-in' ? (
          t('dub.countIn')
        ) : phase === 'recording' ? (
          <span className={styles.recDot} data-testid="dub-recording-badge">
            {t('dub.recording')}
          </span>
        ) : (
          ''
        )}
      </span>
    </div>
  );
}

const isOnline = () => typeof navigator === 'undefined' || navigator.onLine;

function subscribeOnline(changed: () => void): () => void {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
}

/** Recorder fallback, take error, waiting for a login, kept offline. */
function DubNotices({ session, queue }: { session: DubSession; queue: UploadQueue }) {
  useSignals();
  // A boolean: the depth changes with every upload, the notice only when the queue fills or empties.
  const queued = useComputed(() => queue.depth.value > 0).value;
  const online = useSyncExternalStore(subscribeOnline, isOnline, isOnline);
  return (
    <>
      {session.recorderKind.value === 'polyfill' ? (
        <p className={styles.hint}>{t('dub.micFallback')}</p>
      ) : null}
      {session.error.value ? (
        <p className={styles.error} role="alert">
          {t(`dub.problem.${session.error.value}`)}
        </p>
      ) : null}
      {queue.blockedBySession.value ? <p className={styles.hint}>{t('dub.waitingLogin')}</p> : null}
      {queued && !online ? <p className={styles.hint}>{t('dub.offlineKept')}</p> : null}
    </>
  );
}
