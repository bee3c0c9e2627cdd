/**
 * User Timing for the dub pipeline, per line: capture → encode → hand-off → upload+score → shown.
 * Every stage is a `performance.measure` named `dub:<stage> <subtitlesId>` so it shows up in the
 * browser's performance panel; the debug overlay and the bench read the same numbers from here.
 */
import { signal } from '@preact/signals-react';
import type { EncodedWindow } from '../../../workers/encoder-types';

export interface LineTiming {
  uploadId: string;
  subtitlesId: string;
  /** Page-clock ms (performance.now() scale). */
  lineEnd: number;
  captureMs: number;
  encodeMs: number;
  handoffMs: number;
  uploadStart?: number;
  uploadMs?: number;
  /** Line end (subtitle end time on the capture clock) → score painted. */
  lineEndToShownMs?: number;
}

const KEEP = 30;
export const lineTimings = signal<LineTiming[]>([]);
const open = new Map<string, LineTiming>();

const pageMs = (epochMs: number) => epochMs - performance.timeOrigin;

function measure(name: string, start: number, end: number): void {
  try {
    performance.measure(name, { start, end });
  } catch {
    // Old engines without measure options: the overlay still has the numbers.
  }
}

function publish(t: LineTiming): void {
  const rest = lineTimings.peek().filter((x) => x.uploadId !== t.uploadId);
  lineTimings.value = [...rest, { ...t }].slice(-KEEP);
}

/** The worker handed a window over: record capture, encode and hand-off. */
export function windowArrived(uploadId: string, w: EncodedWindow, marginSeconds: number): void {
  const now = performance.now();
  const closed = pageMs(w.closedAtMs);
  const encoded = pageMs(w.encodedAtMs);
  const lineEnd = closed - marginSeconds * 1000;
  const captureStart = closed - w.durationMs;
  measure(`dub:capture ${w.subtitlesId}`, captureStart, closed);
  measure(`dub:encode ${w.subtitlesId}`, closed, encoded);
  measure(`dub:handoff ${w.subtitlesId}`, encoded, now);
  const t: LineTiming = {
    uploadId,
    subtitlesId: w.subtitlesId,
    lineEnd,
    captureMs: w.durationMs,
    encodeMs: encoded - closed,
    handoffMs: now - encoded,
  };
  open.set(uploadId, t);
  publish(t);
}

export function uploadStarted(uploadId: string): void {
  const t = open.get(uploadId);
  if (t && t.uploadStart === undefined) t.uploadStart = performance.now();
}

/** The score is in the store; measure once the browser has painted it. */
export function scoreStored(uploadId: string, subtitlesId: string): void {
  const t = open.get(uploadId);
  if (!t) return;
  const uploaded = performance.now();
  if (t.uploadStart !== undefined) {
    t.uploadMs = uploaded - t.uploadStart;
    measure(`dub:upload+score ${subtitlesId}`, t.uploadStart, uploaded);
  }
  const paint =
    typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (f: () => void) => setTimeout(f, 0);
  // rAF runs before the paint that shows the new state; a task queued from it runs after that paint.
  paint(() =>
    setTimeout(() => {
      const shown = performance.now();
      t.lineEndToShownMs = shown - t.lineEnd;
      measure(`dub:line-end→score ${subtitlesId}`, t.lineEnd, shown);
      open.delete(uploadId);
      publish(t);
    }, 0),
  );
}
