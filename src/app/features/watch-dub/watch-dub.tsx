import { useComputed } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import type { DubVideo } from '../../../api/contract';
import { prefixImage } from '../../../api/image';
import { fact, word } from '../../../i18n';
import { lang, t } from '../../i18n';
import { Button, buttonClass } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { prpt } from '../../stores/films';
import { subTitlesScores } from '../../stores/takes/sub-titles-scores';
import { DubPlayer, type LoadFailure } from './dub-player';
import {
  type LatestTakes,
  latestMelodiesFromScores,
  latestTakesFromScores,
} from '../../stores/takes/latest-takes';
import { planMix } from './mix-plan';
import styles from './watch-dub.module.css';

/** One empty map, so a caller without melody versions does not change the player's plan each render. */
const NO_MELODIES: LatestTakes = {};

/**
 * "Watch my dub": a button that opens the clip with the learner's latest takes in place of the actor
 * (docs/architecture.md, "Watch my dub"). Used by the dub screen and the report; `takes` maps a
 * subtitle id to its latest take's URL (stores/takes/latest-takes.ts).
 */
export function WatchDub({
  filmId,
  takes,
  melodies = NO_MELODIES,
}: {
  filmId: string;
  takes: LatestTakes;
  /** Each line's latest take with the actor's melody, where the server made one. */
  melodies?: LatestTakes;
}) {
  const [open, setOpen] = useState(false);
  const count = Object.keys(takes).length;
  return (
    <>
      <Button
        variant="secondary"
        disabled={count === 0}
        title={count === 0 ? t('watchDub.noTakes') : undefined}
        onClick={() => setOpen(true)}
        data-testid="watch-dub-open"
      >
        {t('watchDub.open')}
      </Button>
      <Modal
        open={open}
        title={t('watchDub.title')}
        onClose={() => setOpen(false)}
        // A visible way out beside Escape and a press outside, which a kiosk or phone user may not know.
        actions={
          <Button variant="secondary" onClick={() => setOpen(false)} data-testid="watch-dub-close">
            {t('watchDub.close')}
          </Button>
        }
      >
        {open ? <WatchDubPlayer filmId={filmId} takes={takes} melodies={melodies} /> : null}
      </Modal>
    </>
  );
}

/**
 * The film's detail (loaded when missing) and the mix plan of its lines: each line's take, or with
 * `withMelody` its melody version where it has one; loaded into `player` whenever it changes.
 */
function usePlayerMedia(
  player: DubPlayer,
  filmId: string,
  takes: LatestTakes,
  melodies: LatestTakes,
  withMelody: boolean,
) {
  const loaded = prpt.movieDetail.value;
  const detail = loaded && loaded.id === filmId ? loaded : null;

  useEffect(() => {
    if (!detail) void prpt.loadMovieDetail(filmId);
  }, [detail, filmId]);

  const plan = useMemo(
    () =>
      detail
        ? planMix(
            detail.subtitlesList.map((l) => {
              const melody = withMelody ? melodies[l.id] : undefined;
              return {
                id: l.id,
                startSeconds: l.startTime_m,
                endSeconds: l.endTime_m,
                takeUrl: melody ?? takes[l.id] ?? null,
                onActorClock: melody !== undefined,
              };
            }),
          )
        : null,
    [detail, takes, melodies, withMelody],
  );

  useEffect(() => {
    if (!detail || !plan) return;
    void player.load({
      video: prefixImage(detail.video),
      background: detail.background ? prefixImage(detail.background) : null,
      plan,
    });
  }, [detail, plan, player]);
  return { detail, plan };
}

/** The seek bar: it follows the clip's position, and moves the clip. */
function SeekBar({
  duration,
  position,
  disabled,
  onSeek,
}: {
  duration: number;
  position: number;
  disabled: boolean;
  onSeek: (to: number) => void;
}) {
  useSignals();
  return (
    <label className={styles.seek}>
      <span>{word(fact('watchDub.seek'), lang.value)}</span>
      <input
        type="range"
        min={0}
        max={Number.isFinite(duration) && duration > 0 ? duration : 0}
        step={0.1}
        value={position}
        disabled={!(duration > 0) || disabled}
        aria-valuetext={`${clockTime(position)} / ${clockTime(duration)}`}
        onChange={(e) => onSeek(Number(e.currentTarget.value))}
        data-testid="watch-dub-seek"
      />
      <span className={styles.time} aria-hidden="true">
        {clockTime(position)} / {clockTime(duration)}
      </span>
    </label>
  );
}

/** Play or stop, the melody option, and what the player is doing in words. */
function PlayerControls({
  player,
  state,
  video,
  hasMelodies,
  withMelody,
  onMelody,
  status,
}: {
  player: DubPlayer;
  state: DubPlayer['state']['value'];
  video: RefObject<HTMLVideoElement | null>;
  hasMelodies: boolean;
  withMelody: boolean;
  onMelody: (on: boolean) => void;
  status: string;
}) {
  return (
    <div className={styles.controls}>
      {state === 'playing' ? (
        <Button
          variant="secondary"
          onClick={() => player.stop(video.current ?? undefined)}
          data-testid="watch-dub-stop"
        >
          {t('watchDub.stop')}
        </Button>
      ) : (
        <Button
          variant="primary"
          disabled={state !== 'ready'}
          onClick={() => {
            const v = video.current;
            // From where the seek bar stands; from the start again once the clip has ended.
            if (v) void player.play(v, v.ended || v.currentTime >= v.duration ? 0 : v.currentTime);
          }}
          data-testid="watch-dub-play"
        >
          {t('watchDub.play')}
        </Button>
      )}
      {hasMelodies ? (
        <label className={styles.option}>
          <input
            type="checkbox"
            checked={withMelody}
            disabled={state === 'playing'}
            onChange={(e) => onMelody(e.currentTarget.checked)}
            data-testid="watch-dub-melody"
          />
          {word(fact('melody.watchOption'), lang.value)}
        </label>
      ) : null}
      <span className="muted" role="status">
        {status}
      </span>
    </div>
  );
}

function WatchDubPlayer({
  filmId,
  takes,
  melodies,
}: {
  filmId: string;
  takes: LatestTakes;
  melodies: LatestTakes;
}) {
  useSignals();
  // "With the actor's melody": a line's melody version in place of its take; a line without one keeps the take.
  const [withMelody, setWithMelody] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  // The seek bar follows the clip (its own events), and moves it.
  const [duration, setDuration] = useState(0);
  const [position, setPosition] = useState(0);
  const player = useMemo(() => new DubPlayer(), []);
  const { detail, plan } = usePlayerMedia(player, filmId, takes, melodies, withMelody);
  useEffect(() => () => void player.dispose(), [player]);

  const state = player.state.value;
  const schedule = player.schedule.value;
  return (
    <div
      className={styles.player}
      data-testid="watch-dub"
      data-state={state}
      data-schedule={schedule ? JSON.stringify(schedule) : undefined}
    >
      <p className="muted">{t('watchDub.hint')}</p>
      {detail ? (
        <video
          ref={video}
          className={styles.video}
          src={prefixImage(detail.video)}
          playsInline
          muted
          preload="auto"
          onLoadedMetadata={(e) => setDuration(e.currentTarget.duration)}
          onDurationChange={(e) => setDuration(e.currentTarget.duration)}
          onTimeUpdate={(e) => setPosition(e.currentTarget.currentTime)}
          data-testid="watch-dub-video"
        >
          {detail.subtitlesTrack ? (
            <track kind="subtitles" src={prefixImage(detail.subtitlesTrack)} srcLang="de" default />
          ) : null}
        </video>
      ) : null}
      <SeekBar
        duration={duration}
        position={position}
        disabled={state === 'loading'}
        onSeek={(to) => {
          setPosition(to);
          if (video.current) void player.seekTo(video.current, to);
        }}
      />
      <PlayerControls
        player={player}
        state={state}
        video={video}
        hasMelodies={Object.keys(melodies).length > 0}
        withMelody={withMelody}
        onMelody={setWithMelody}
        status={
          state === 'loading' || !detail
            ? t('watchDub.loading')
            : state === 'failed'
              ? failureText(player.error.value, detail.subtitlesList)
              : t('watchDub.count', { n: plan?.takes.length ?? 0, total: detail.subtitlesList.length })
        }
      />
    </div>
  );
}

/** Seconds as m:ss (the seek bar's reading; no words, so no catalogue row). */
function clockTime(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The failure's real cause, naming the track (a take by its line number). */
export function failureText(failure: LoadFailure | null, lines: readonly { id: string }[]): string {
  if (!failure) return t('watchDub.failed.network', { what: t('watchDub.track.clip') });
  const what =
    failure.track === 'take'
      ? t('watchDub.track.take', { n: lines.findIndex((l) => l.id === failure.lineId) + 1 })
      : t(failure.track === 'clip' ? 'watchDub.track.clip' : 'watchDub.track.background');
  switch (failure.kind) {
    case 'blocked':
      return t('watchDub.failed.blocked', { what });
    case 'local':
      return t('watchDub.failed.local', { what });
    case 'http':
      return t('watchDub.failed.http', { what, status: failure.status ?? 0 });
    case 'decode':
      return t('watchDub.failed.decode', { what });
    default:
      return t('watchDub.failed.network', { what });
  }
}

/**
 * The dub page's button: the latest takes of this visit's scores (its own component, so a new score
 * re-renders only the button, never the dub screen).
 */
export function WatchDubFromScores({ filmId }: { filmId: string }) {
  useSignals();
  const takes = useComputed(() => latestTakesFromScores(subTitlesScores.value)).value;
  const melodies = useComputed(() => latestMelodiesFromScores(subTitlesScores.value)).value;
  return <WatchDub filmId={filmId} takes={takes} melodies={melodies} />;
}

/** The report's rendered dubbed video (get_info_by_id `dubVideo`): a download once it is ready. */
export function DubVideoLink({ video }: { video: DubVideo | undefined }) {
  if (video?.status === 'ready' && video.url) {
    return (
      <a
        href={prefixImage(video.url)}
        download
        className={buttonClass({ variant: 'secondary', size: 'sm' })}
        data-testid="dub-video-download"
      >
        {t('watchDub.download')}
      </a>
    );
  }
  if (video?.status === 'rendering') return <span className="muted">{t('watchDub.rendering')}</span>;
  if (video?.status === 'failed') return <span className="muted">{video.message}</span>;
  return null;
}
