import styles from './score-badge.module.css';
import { cx } from './cx';

export type ScoreBand = 'high' | 'mid' | 'low' | 'none';

/** 80+ is strong, 60+ is on the way, below that needs work. */
export function scoreBand(score: number | null | undefined): ScoreBand {
  if (score === null || score === undefined || !Number.isFinite(score)) return 'none';
  if (score >= 80) return 'high';
  if (score >= 60) return 'mid';
  return 'low';
}

export interface ScoreBadgeProps {
  score: number | null | undefined;
  /** Accessible wording, e.g. "得分 82 分"; the badge itself shows only the number. */
  label: string;
  unit?: string;
  size?: 'md' | 'lg';
}

export function ScoreBadge({ score, label, unit, size = 'md' }: ScoreBadgeProps) {
  const band = scoreBand(score);
  return (
    <span
      className={cx(styles.badge, styles[band], size === 'lg' && styles.lg)}
      role="img"
      aria-label={label}
    >
      <span aria-hidden="true">{band === 'none' ? '—' : Math.round(score as number)}</span>
      {unit && band !== 'none' ? (
        <span className={styles.unit} aria-hidden="true">
          {unit}
        </span>
      ) : null}
    </span>
  );
}
