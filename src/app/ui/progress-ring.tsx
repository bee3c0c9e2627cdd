import type { CSSProperties, ReactNode } from 'react';
import styles from './progress-ring.module.css';

export interface ProgressRingProps {
  /** 0–1; clamped. */
  value: number;
  /** Accessible name, e.g. "3 of 8 lines dubbed". */
  label: string;
  size?: number;
  stroke?: number;
  color?: string;
  /** What to show in the middle; defaults to the percentage. */
  children?: ReactNode;
}

/** A progress ring: a progressbar for assistive tech, two circles for the eye. */
export function ProgressRing({ value, label, size = 64, stroke = 6, color, children }: ProgressRingProps) {
  const v = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
  const r = (size - stroke) / 2;
  const c = 2 * Math.PI * r;
  const percent = Math.round(v * 100);
  return (
    <div
      className={styles.ring}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      style={{ width: size, height: size, '--ring-color': color } as CSSProperties}
    >
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} aria-hidden="true">
        <circle className={styles.track} cx={size / 2} cy={size / 2} r={r} fill="none" strokeWidth={stroke} />
        <circle
          className={styles.value}
          cx={size / 2}
          cy={size / 2}
          r={r}
          fill="none"
          strokeWidth={stroke}
          strokeLinecap="round"
          strokeDasharray={c}
          strokeDashoffset={c * (1 - v)}
          transform={`rotate(-90 ${size / 2} ${size / 2})`}
        />
      </svg>
      <span className={styles.label} aria-hidden="true" style={{ fontSize: Math.max(11, size * 0.24) }}>
        {children ?? `${percent}%`}
      </span>
    </div>
  );
}
