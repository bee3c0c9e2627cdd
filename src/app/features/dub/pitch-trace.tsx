import { effect } from '@preact/signals-react';
import { useEffect, useRef } from 'react';
import { PITCH_MAX_HZ, PITCH_MIN_HZ } from '../../../audio/constants';
import styles from './dub.module.css';
import type { DubSession } from './dub-session';

/** Live pitch from the encoder worker (10 Hz), on a log-frequency canvas. */
export function PitchTrace({ session, label }: { session: DubSession; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(
    () =>
      effect(() => {
        const trace = session.pitchTrace.value;
        const c = canvas.current;
        const g = c?.getContext('2d');
        if (!c || !g) return;
        g.clearRect(0, 0, c.width, c.height);
        const lo = Math.log(PITCH_MIN_HZ);
        const span = Math.log(PITCH_MAX_HZ) - lo;
        const step = c.width / 150;
        g.strokeStyle = '#5ed3c4';
        g.lineWidth = 2;
        g.beginPath();
        let drawing = false;
        trace.forEach((hz, i) => {
          if (hz === null) {
            drawing = false;
            return;
          }
          const x = i * step;
          const y = c.height - ((Math.log(hz) - lo) / span) * c.height;
          if (drawing) g.lineTo(x, y);
          else g.moveTo(x, y);
          drawing = true;
        });
        g.stroke();
      }),
    [session],
  );
  return (
    <div>
      <span className={styles.meterLabel}>{label}</span>
      <canvas ref={canvas} width={320} height={80} role="img" aria-label={label} />
    </div>
  );
}
