import { effect } from '@preact/signals-react';
import { startTransition, useEffect, useState } from 'react';
import styles from './dub.module.css';
import type { DubSession } from './dub-session';
import { longTasks, watchLongTasks } from './long-tasks';
import { lineTimings } from './pipeline-timing';
import type { UploadQueue } from '../../stores/uploads/upload-queue';

const ms = (v: number | undefined) =>
  v === undefined ? '…' : v < 10 ? v.toFixed(1) : Math.round(v).toString();

/** The overlay re-renders at most this often: its own updates must not be what it measures. */
const REFRESH_MS = 500;

/**
 * Re-renders the overlay when what it shows changes, at most every REFRESH_MS: the worker's stats come
 * 10 times a second, and each long task it reports would otherwise re-render (and re-lay-out) it. In a
 * transition, so React renders it in short slices rather than in one timer task.
 */
function useThrottledRefresh(session: DubSession, queue: UploadQueue): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const dispose = effect(() => {
      void session.stats.value;
      void session.phase.value;
      void session.recorderKind.value;
      void session.workletDropped.value;
      void session.inputSkipped.value;
      void queue.depth.value;
      void queue.inFlight.value;
      void queue.blockedBySession.value;
      void longTasks.value;
      void lineTimings.value;
      timer ??= setTimeout(() => {
        timer = undefined;
        startTransition(() => setTick((n) => n + 1));
      }, REFRESH_MS);
    });
    return () => {
      dispose();
      clearTimeout(timer);
    };
  }, [session, queue]);
}

/** The stage columns of the timings table: heading, and the line timing's field. */
const STAGES = [
  ['capture', 'captureMs'],
  ['encode', 'encodeMs'],
  ['handoff', 'handoffMs'],
  ['queue', 'queueMs'],
  ['upload+score', 'uploadMs'],
  ['paint', 'paintMs'],
  ['end→shown', 'lineEndToShownMs'],
] as const;

/** The last lines' stage timings, newest first. */
function LineTimingsTable() {
  return (
    <table>
      <thead>
        <tr>
          <th>line</th>
          {STAGES.map(([heading]) => (
            <th key={heading}>{heading}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {lineTimings
          .peek()
          .slice(-8)
          .reverse()
          .map((t) => (
            <tr key={t.uploadId}>
              <td>{t.subtitlesId}</td>
              {STAGES.map(([heading, field]) => (
                <td key={heading}>{ms(t[field])}</td>
              ))}
            </tr>
          ))}
      </tbody>
    </table>
  );
}

/** `?debug=pipeline`: live stage timings, queue depths and dropped-frame counters (English: for developers). */
export function DebugOverlay({ session, queue }: { session: DubSession; queue: UploadQueue }) {
  useEffect(() => watchLongTasks(), []);
  useThrottledRefresh(session, queue);
  const s = session.stats.peek();
  const lt = longTasks.peek();
  return (
    <aside className={styles.overlay} aria-label="pipeline debug" data-testid="pipeline-overlay">
      <dl>
        <dt>recorder</dt>
        <dd>{session.recorderKind.peek() ?? '—'}</dd>
        <dt>phase</dt>
        <dd data-testid="overlay-phase">{session.phase.peek()}</dd>
        <dt>captured</dt>
        <dd>{s ? `${s.capturedSeconds.toFixed(1)} s @ ${s.captureRate} Hz` : '—'}</dd>
        <dt>frames dropped by the worklet · not delivered by the browser · filled by the worker</dt>
        <dd data-testid="overlay-dropped">
          {session.workletDropped.peek()} · {session.inputSkipped.peek()} · {s?.droppedFrames ?? 0}
        </dd>
        <dt>windows open · to come · done</dt>
        <dd>{s ? `${s.openWindows} · ${s.remainingWindows} · ${s.windowsDone}` : '—'}</dd>
        <dt>dot-product kernel</dt>
        <dd data-testid="overlay-kernel">{s?.kernel ?? '—'}</dd>
        <dt>worker load</dt>
        <dd>
          {s ? `${s.workMsPerSecond.toFixed(1)} ms per s audio, last wav ${ms(s.lastEncodeMs)} ms` : '—'}
        </dd>
        <dt>upload queue · in flight</dt>
        <dd data-testid="overlay-queue">
          {queue.depth.peek()} · {queue.inFlight.peek()}
          {queue.blockedBySession.peek() ? ' (waiting for login)' : ''}
        </dd>
        <dt>long tasks (&gt;50 ms)</dt>
        <dd data-testid="overlay-long-tasks">
          {lt.count} (worst {ms(lt.worstMs)} ms)
        </dd>
      </dl>
      <LineTimingsTable />
    </aside>
  );
}
