/**
 * User Timing for the dub pipeline, per line: capture (its tail: line end → window closed) → encode →
 * hand-off → queue (its send begun) → upload+score → paint (in the store → shown).
 * Every stage is a `performance.measure` named `dub:<stage> <subtitlesId>` so it shows up in the
 * browser's performance panel; the debug overlay and the bench read the same numbers from here.
 * An observer: it listens to the line events (line-events.ts) and the queue's events (app-queue.ts),
 * from the moment the dub screen loads it.
 */
import { signal } from '@preact/signals-react';
import type { EncodedWindow } from '../../../workers/encoder-types';
import { uploadEvents } from '../../stores/uploads/app-queue';
import { lineEvents } from './line-events';

export interface LineTiming {
  uploadId: string;
  subtitlesId: string;
  /** Page-clock ms (performance.now() scale). */
  lineEnd: number;
  captureMs: number;
  encodeMs: number;
  handoffMs: number;
  /** Page-clock ms the window reached the page. */
  handedAt: number;
  /** Handed over → its upload began (the queue took its lock; its write to the store runs alongside). */
  queueMs?: number;
  uploadStart?: number;
  uploadMs?: number;
  /** Page-clock ms the score reached the store. */
  storedAt?: number;
  /** In the store → painted in its row. */
  paintMs?: number;
  /** Line end (subtitle end time on the capture clock) → score painted. */
  lineEndToShownMs?: number;
  /** The score is in the store; `shown`: a row has committed it. */
  stored?: boolean;
  shown?: boolean;
}

const KEEP = 30;
export const lineTimings = signal<LineTiming[]>([]);
const open = new Map<string, LineTiming>();

const pageMs = (epochMs: number) => epochMs - performance.timeOrigin;

function measure(name: string, start: number, end: number): void {
  try {
    // A start before the page's time origin (a line that ended in its first moments) is refused by
    // performance.measure; the timing's own figures keep the true value.
    performance.measure(name, { start: Math.max(0, start), end: Math.max(0, end) });
  } catch {
    // Old engines without measure options: the overlay still has the numbers.
  }
}

function publish(t: LineTiming): void {
  const rest = lineTimings.peek().filter((x) => x.uploadId !== t.uploadId);
  lineTimings.value = [...rest, { ...t }].slice(-KEEP);
}

/** The worker handed a window over: record capture, encode and hand-off. */
function windowArrived(uploadId: string, w: EncodedWindow): void {
  const now = performance.now();
  const closed = pageMs(w.closedAtMs);
  const encoded = pageMs(w.encodedAtMs);
  const lineEnd = closed - w.tailMs;
  const captureStart = closed - w.durationMs;
  measure(`dub:capture ${w.subtitlesId}`, captureStart, closed);
  measure(`dub:tail ${w.subtitlesId}`, lineEnd, closed);
  measure(`dub:encode ${w.subtitlesId}`, closed, encoded);
  measure(`dub:handoff ${w.subtitlesId}`, encoded, now);
  const t: LineTiming = {
    uploadId,
    subtitlesId: w.subtitlesId,
    lineEnd,
    captureMs: w.durationMs,
    encodeMs: encoded - closed,
    handoffMs: now - encoded,
    handedAt: now,
  };
  open.set(uploadId, t);
  publish(t);
}

function uploadStarted(uploadId: string): void {
  const t = open.get(uploadId);
  if (!t || t.uploadStart !== undefined) return;
  t.uploadStart = performance.now();
  t.queueMs = t.uploadStart - t.handedAt;
  measure(`dub:queue ${t.subtitlesId}`, t.handedAt, t.uploadStart);
}

/** How long a stored score waits for a row to show it (none: scored on another page) before it is dropped. */
const SHOWN_WAIT_MS = 30_000;

/**
 * The score is in the store. Line end → shown is measured when a row has committed it and the browser
 * has painted that (`scoreShown`): rows render their updates in transitions, a moment after the store.
 */
function scoreStored(uploadId: string, subtitlesId: string): void {
  const t = open.get(uploadId);
  if (!t) return;
  const uploaded = performance.now();
  if (t.uploadStart !== undefined) {
    t.uploadMs = uploaded - t.uploadStart;
    measure(`dub:upload+score ${subtitlesId}`, t.uploadStart, uploaded);
  }
  t.stored = true;
  t.storedAt = uploaded;
  setTimeout(() => {
    if (open.get(uploadId) === t && !t.shown) open.delete(uploadId);
  }, SHOWN_WAIT_MS);
}

/** A row has committed its line's score to the DOM: measure once the browser has painted it. */
function scoreShown(subtitlesId: string): void {
  for (const [uploadId, t] of open) {
    if (t.subtitlesId !== subtitlesId || !t.stored || t.shown) continue;
    t.shown = true;
    const paint =
      typeof requestAnimationFrame === 'function'
        ? requestAnimationFrame
        : (f: () => void) => setTimeout(f, 0);
    // rAF runs before the paint that shows the new state; a task queued from it runs after that paint.
    paint(() =>
      setTimeout(() => {
        const shown = performance.now();
        t.lineEndToShownMs = shown - t.lineEnd;
        measure(`dub:line-end→score ${subtitlesId}`, t.lineEnd, shown);
        if (t.storedAt !== undefined) {
          t.paintMs = shown - t.storedAt;
          measure(`dub:paint ${subtitlesId}`, t.storedAt, shown);
        }
        open.delete(uploadId);
        publish(t);
      }, 0),
    );
  }
}

lineEvents.on('window', (e) => windowArrived(e.uploadId, e.window));
uploadEvents.on('sending', (item) => uploadStarted(item.uploadId));
uploadEvents.on('scored', ({ item }) => scoreStored(item.uploadId, item.subtitlesId));
lineEvents.on('shown', (e) => scoreShown(e.subtitlesId));
