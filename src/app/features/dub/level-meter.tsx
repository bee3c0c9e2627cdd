import { effect } from '@preact/signals-react';
import { useEffect, useRef } from 'react';
import styles from './dub.module.css';
import type { DubSession } from './dub-session';

/**
 * Live input level on a canvas, at rest between takes. Drawn from a signal effect, not React state: 30 level messages a
 * second must not re-render the page.
 */
export function LevelMeter({ session, label }: { session: DubSession; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    // What is on the canvas now: a reading that moves no bar by a whole pixel is not drawn again.
    let drawn = '';
    return effect(() => {
      // Between takes the meter rests at zero: no last reading frozen on it.
      const idle = session.phase.value === 'idle';
      const level = idle ? null : session.level.value;
      const stats = idle ? null : session.stats.value;
      const c = canvas.current;
      const g = c?.getContext('2d');
      if (!c || !g) return;
      // The polyfill path has no worklet level: fall back to the worker's RMS.
      const rms = level && level.rms > 0 ? level.rms : (stats?.rms ?? 0);
      const peak = level?.peak ?? rms;
      const toX = (v: number) =>
        Math.round(Math.max(0, Math.min(1, (20 * Math.log10(v || 1e-6) + 60) / 60)) * c.width);
      const clipped = peak >= 0.99;
      const key = `${toX(rms)} ${toX(peak)} ${clipped}`;
      if (key === drawn) return;
      drawn = key;
      g.clearRect(0, 0, c.width, c.height);
      g.fillStyle = clipped ? '#ff7a7a' : '#5ed3c4';
      g.fillRect(0, 0, toX(rms), c.height);
      g.fillStyle = '#f3f1ec';
      g.fillRect(Math.max(0, toX(peak) - 2), 0, 2, c.height);
    });
  }, [session]);
  return (
    <div>
      <span className={styles.meterLabel}>{label}</span>
      <canvas ref={canvas} width={320} height={12} role="img" aria-label={label} />
    </div>
  );
}
