import { useComputed, useSignal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { type RefObject, useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { Link, useParams } from 'react-router-dom';
import { prefixImage } from '../../../api/image';
import { createRecorder } from '../../../audio/capture/create-recorder';
import { encoderBridge } from '../../../workers/encoder-bridge';
import { DebugOverlay } from '../../features/dub/debug-overlay';
import { DubLineRow } from '../../features/dub/dub-line-row';
import { dubUploadQueue, takeSources } from '../../features/dub/dub-queue';
import type { UploadQueue } from '../../features/dub/upload-queue';
import { DubSession } from '../../features/dub/dub-session';
import styles from '../../features/dub/dub.module.css';
import { LevelMeter } from '../../features/dub/level-meter';
import { dt } from '../../features/dub/messages';
import { PitchTrace } from '../../features/dub/pitch-trace';
import { loadMovieDetail, movieDetail } from '../../stores/prpt';
import type { SubtitleLine } from '../../stores/movie-detail';
import { Button, buttonClass } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { EmptyState, LoadingState } from '../../ui/states';
import { useLoad } from '../../screens/common/use-load';
import { useT } from '../../screens/common/use-t';

/**
 * /prpt/dub/:id — dub the clip: a scene take of every line, or a retake of one line.
 *
 * The page itself reads no signal that changes during a take (only the film's detail): the take's
 * phase, count-down, queue depth and clip position are read by the small parts that show them, and
 * each row derives what it needs from them. So a phase change, a queue change or a `timeupdate`
 * re-renders only what changed, never the page with its rows and the debug overlay.
 */
export default function PrptDubPage() {
  useSignals();
  const { id = '' } = useParams();
  const video = useRef<HTMLVideoElement>(null);
  /** The clip position (s), from the video's `timeupdate`; rows mark themselves active from it. */
  const clipTime = useSignal(0);
  const queue = dubUploadQueue();
  const session = useMemo(
    () =>
      new DubSession({
        filmId: id,
        queue,
        bridge: encoderBridge,
        createRecorder: () => createRecorder(),
        sources: takeSources,
      }),
    [id, queue],
  );
  const debug = useMemo(() => new URLSearchParams(location.search).get('debug') === 'pipeline', []);
  const { status, reload } = useLoad(() => loadMovieDetail(id), [id]);
  const { t } = useT();

  useEffect(() => {
    // Being on this page means logged in: send what waited for a login, and what an earlier page left.
    queue.resumeAfterLogin();
    void queue.resume().catch((e) => console.error('[dub] cannot read pending uploads', e));
    return () => void session.dispose();
  }, [queue, session]);

  // Stable handlers: the rows are memoised and must not re-render because the page did.
  const listen = useCallback((line: SubtitleLine) => {
    void new Audio(prefixImage(line.referenceAudio))
      .play()
      .catch((e) => console.error('[dub] cannot play', e));
  }, []);
  const play = useCallback((url: string) => {
    void new Audio(url).play().catch((e) => console.error('[dub] cannot play', e));
  }, []);
  const retry = useCallback(
    (line: SubtitleLine) => {
      for (const p of queue.pendingFor(line.id)) queue.retry(p.uploadId);
    },
    [queue],
  );
  const record = useCallback(
    (line: SubtitleLine) => {
      if (video.current) void session.lineRetake(video.current, line);
    },
    [session],
  );

  const detail = movieDetail.value && movieDetail.value.id === id ? movieDetail.value : null;
  const lines: SubtitleLine[] = detail?.subtitlesList ?? [];

  if (!detail) {
    return status === 'failed' ? (
      <EmptyState
        title={t('ui.loadFailedTitle')}
        body={t('ui.loadFailedBody')}
        action={
          <Button variant="secondary" onClick={reload}>
            {t('ui.reload')}
          </Button>
        }
      />
    ) : (
      <LoadingState label={dt('loading')} />
    );
  }

  return (
    // `screen` gives the page the gutters and width every other screen has (it touched both edges).
    <div className={`screen ${styles.page}`}>
      <PageHeader
        eyebrow={detail.title}
        title={dt('title')}
        subtitle={dt('sceneTakeHint')}
        actions={
          <Link className={buttonClass({ variant: 'primary' })} to={`/prpt/soundSuggest/${id}`}>
            {dt('next')}
          </Link>
        }
      />
      <div className={styles.stage}>
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
              <track kind="subtitles" src={prefixImage(detail.subtitlesTrack)} srcLang="de" default />
            ) : null}
          </video>
          <TakeIndicator session={session} />
        </div>
        <div className={styles.panel}>
          <TakeControls session={session} video={video} lines={lines} />
          <DubNotices session={session} queue={queue} />
          <div className={styles.meters}>
            <LevelMeter session={session} label={dt('level')} />
            <PitchTrace session={session} label={dt('pitch')} />
          </div>
        </div>
      </div>
      {lines.length === 0 ? (
        <EmptyState title={dt('noLines')} />
      ) : (
        <ol className={styles.lines}>
          {lines.map((line) => (
            <DubLineRow
              key={line.id}
              line={line}
              clipTime={clipTime}
              busy={session.busy}
              onRecord={record}
              onListen={listen}
              onRetry={retry}
              onPlay={play}
            />
          ))}
        </ol>
      )}
      {debug ? <DebugOverlay session={session} queue={queue} /> : null}
    </div>
  );
}

/** Over the video: the count-in number, then the recording dot. */
function TakeIndicator({ session }: { session: DubSession }) {
  useSignals();
  const phase = session.phase.value;
  if (phase === 'count-in') {
    return (
      <div className={styles.countIn} aria-live="assertive">
        {session.countdown.value}
      </div>
    );
  }
  return phase === 'recording' ? <span className={styles.recDot}>{dt('recording')}</span> : null;
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
          {dt('stop')}
        </Button>
      ) : (
        <Button
          variant="primary"
          disabled={lines.length === 0}
          onClick={() => video.current && void session.sceneTake(video.current, lines)}
          data-testid="dub-scene-take"
        >
          {dt('sceneTake')}
        </Button>
      )}
      <span className={styles.hint} data-testid="dub-phase" data-phase={phase}>
        {phase === 'count-in' ? dt('countIn') : phase === 'recording' ? dt('recording') : ''}
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
      {session.recorderKind.value === 'polyfill' ? <p className={styles.hint}>{dt('micFallback')}</p> : null}
      {session.error.value ? (
        <p className={styles.error} role="alert">
          {session.error.value}
        </p>
      ) : null}
      {queue.blockedBySession.value ? <p className={styles.hint}>{dt('waitingLogin')}</p> : null}
      {queued && !online ? <p className={styles.hint}>{dt('offlineKept')}</p> : null}
    </>
  );
}
