import { type RefObject, useEffect, useMemo, useRef } from 'react';
import type { SubtitleLine } from '../../lib/movie-detail';
import styles from './pitch-guide.module.css';
import type { DubSession } from './dub-session';
import { GUIDE_PAD_SECONDS, guideLine, learnerOnLine, type PitchRing } from './pitch-guide-data';

/** Semitones above and below the median the guide shows. */
const RANGE_ST = 12;

/**
 * The pitch guide (docs/recording.md, "Pitch guide"): for the active line, the actor's contour
 * (semitones re the actor's median on the line, from the film detail) scrolls under a playhead, and
 * the learner's live pitch (from the worker, re their own median on the line: learnerOnLine) is drawn
 * over it. Drawn on a
 * canvas once per display frame from data computed elsewhere; a frame with nothing new draws nothing.
 */
export function PitchGuide({
  session,
  video,
  lines,
  label,
}: {
  session: DubSession;
  video: RefObject<HTMLVideoElement | null>;
  lines: readonly SubtitleLine[];
  label: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // `?guide=off` leaves it out: bench:pipeline measures a take with and without it.
  const off = useMemo(() => new URLSearchParams(location.search).get('guide') === 'off', []);
  useEffect(() => {
    if (off) return;
    const c = canvas.current;
    const g = c?.getContext('2d');
    if (!c || !g) return;
    const css = getComputedStyle(c);
    const actor = css.getPropertyValue('--color-actor').trim() || '#e8a54b';
    const learner = css.getPropertyValue('--color-learner').trim() || '#5ed3c4';
    const grid = css.getPropertyValue('--color-border').trim() || '#343a4a';
    let frame = 0;
    let drawn = { t: -1, version: -1, line: '' };
    const draw = () => {
      frame = requestAnimationFrame(draw);
      const v = video.current;
      if (!v || document.hidden) return;
      const t = v.currentTime;
      const ring = session.guideTrace;
      const line = guideLine(lines, t, v.paused ? ring.held() : null);
      if (t === drawn.t && ring.version === drawn.version && (line?.id ?? '') === drawn.line) return;
      drawn = { t, version: ring.version, line: line?.id ?? '' };
      drawGuide(g, c.width, c.height, { actor, learner, grid }, line, ring, t);
    };
    frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }, [session, video, lines, off]);
  if (off) return null;
  return (
    <div className={styles.guide}>
      <span className={styles.label}>{label}</span>
      <canvas ref={canvas} width={640} height={96} role="img" aria-label={label} data-testid="pitch-guide" />
    </div>
  );
}

type GuideLine = NonNullable<ReturnType<typeof guideLine>>;

/**
 * One frame on a `w`×`h` canvas: the middle (median) line; for the line at clip time `t`, the actor's contour, the
 * learner's trace up to `t` and the playhead.
 */
function drawGuide(
  g: CanvasRenderingContext2D,
  w: number,
  h: number,
  colors: { actor: string; learner: string; grid: string },
  line: GuideLine | null,
  ring: PitchRing,
  t: number,
): void {
  g.clearRect(0, 0, w, h);
  g.strokeStyle = colors.grid;
  g.lineWidth = 1;
  g.beginPath();
  g.moveTo(0, h / 2);
  g.lineTo(w, h / 2);
  g.stroke();
  if (!line) return;
  const from = line.startTime_m - GUIDE_PAD_SECONDS;
  const span = line.endTime_m + GUIDE_PAD_SECONDS - from;
  const x = (time: number) => ((time - from) / span) * w;
  const y = (st: number) => h / 2 - (Math.max(-RANGE_ST, Math.min(RANGE_ST, st)) / RANGE_ST) * (h / 2 - 2);
  if (line.actorPitch) strokeActor(g, colors.actor, line, line.actorPitch, x, y);
  strokeLearner(g, colors.learner, learnerOnLine(ring, line, t), x, y);
  if (t >= from && t <= from + span) {
    g.strokeStyle = colors.learner;
    g.lineWidth = 1;
    g.beginPath();
    g.moveTo(x(t), 0);
    g.lineTo(x(t), h);
    g.stroke();
  }
}

/** The actor's contour across the line, broken where it is unvoiced. */
function strokeActor(
  g: CanvasRenderingContext2D,
  color: string,
  line: GuideLine,
  pitch: NonNullable<GuideLine['actorPitch']>,
  x: (time: number) => number,
  y: (st: number) => number,
): void {
  g.strokeStyle = color;
  g.lineWidth = 3;
  g.beginPath();
  let on = false;
  pitch.semitones.forEach((st, i) => {
    if (st === null) {
      on = false;
      return;
    }
    const px = x(line.startTime_m + (i + 0.5) * pitch.hopSeconds);
    if (on) g.lineTo(px, y(st));
    else g.moveTo(px, y(st));
    on = true;
  });
  g.stroke();
}

/** The learner's live pitch on the line, broken where it is unvoiced. */
function strokeLearner(
  g: CanvasRenderingContext2D,
  color: string,
  points: ReturnType<typeof learnerOnLine>,
  x: (time: number) => number,
  y: (st: number) => number,
): void {
  g.strokeStyle = color;
  g.lineWidth = 2;
  g.beginPath();
  let on = false;
  points.times.forEach((time, i) => {
    const st = points.semitones[i];
    if (Number.isNaN(st)) {
      on = false;
      return;
    }
    if (on) g.lineTo(x(time), y(st));
    else g.moveTo(x(time), y(st));
    on = true;
  });
  g.stroke();
}
