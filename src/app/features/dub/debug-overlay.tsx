import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import styles from './dub.module.css';
import type { DubSession } from './dub-session';
import { longTasks, watchLongTasks } from './long-tasks';
import { lineTimings } from './pipeline-timing';
import type { UploadQueue } from './upload-queue';

const ms = (v: number | undefined) =>
  v === undefined ? '…' : v < 10 ? v.toFixed(1) : Math.round(v).toString();

/** `?debug=pipeline`: live stage timings, queue depths and dropped-frame counters (English: for developers). */
export function DebugOverlay({ session, queue }: { session: DubSession; queue: UploadQueue }) {
  useSignals();
  useEffect(() => watchLongTasks(), []);
  const s = session.stats.value;
  const lt = longTasks.value;
  return (
    <aside className={styles.overlay} aria-label="pipeline debug" data-testid="pipeline-overlay">
      <dl>
        <dt>recorder</dt>
        <dd>{session.recorderKind.value ?? '—'}</dd>
        <dt>phase</dt>
        <dd data-testid="overlay-phase">{session.phase.value}</dd>
        <dt>captured</dt>
        <dd>{s ? `${s.capturedSeconds.toFixed(1)} s @ ${s.captureRate} Hz` : '—'}</dd>
        <dt>dropped frames (worklet / worker)</dt>
        <dd data-testid="overlay-dropped">
          {session.workletDropped.value} / {s?.droppedFrames ?? 0}
        </dd>
        <dt>windows open · to come · done</dt>
        <dd>{s ? `${s.openWindows} · ${s.remainingWindows} · ${s.windowsDone}` : '—'}</dd>
        <dt>worker load</dt>
        <dd>
          {s ? `${s.workMsPerSecond.toFixed(1)} ms per s audio, last wav ${ms(s.lastEncodeMs)} ms` : '—'}
        </dd>
        <dt>upload queue · in flight</dt>
        <dd data-testid="overlay-queue">
          {queue.depth.value} · {queue.inFlight.value}
          {queue.blockedBySession.value ? ' (waiting for login)' : ''}
        </dd>
        <dt>long tasks (&gt;50 ms)</dt>
        <dd data-testid="overlay-long-tasks">
          {lt.count} (worst {ms(lt.worstMs)} ms)
        </dd>
      </dl>
      <table>
        <thead>
          <tr>
            <th>line</th>
            <th>capture</th>
            <th>encode</th>
            <th>handoff</th>
            <th>upload+score</th>
            <th>end→shown</th>
          </tr>
        </thead>
        <tbody>
          {lineTimings.value
            .slice(-8)
            .reverse()
            .map((t) => (
              <tr key={t.uploadId}>
                <td>{t.subtitlesId}</td>
                <td>{ms(t.captureMs)}</td>
                <td>{ms(t.encodeMs)}</td>
                <td>{ms(t.handoffMs)}</td>
                <td>{ms(t.uploadMs)}</td>
                <td>{ms(t.lineEndToShownMs)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </aside>
  );
}
