import styles from './steps.module.css';
import { cx } from './cx';

export interface Step {
  key: string;
  label: string;
  description?: string;
}

export interface StepsProps {
  steps: ReadonlyArray<Step>;
  /** Index of the current step; steps before it show as done. -1 when none has started. */
  current?: number;
  /** The steps actually done (by key), when known: then only these show as done, wherever `current` is. */
  done?: ReadonlySet<string>;
  /** Accessible name of the list ("训练步骤"). */
  label: string;
  compact?: boolean;
}

export function Steps({ steps, current = -1, done, label, compact }: StepsProps) {
  return (
    <ol className={cx(styles.steps, compact && styles.compact)} aria-label={label}>
      {steps.map((s, i) => (
        <li
          key={s.key}
          className={cx(
            styles.step,
            i !== current && (done ? done.has(s.key) : i < current) && styles.done,
            i === current && styles.current,
          )}
          data-done={(i !== current && (done ? done.has(s.key) : i < current)) || undefined}
          aria-current={i === current ? 'step' : undefined}
        >
          <span className={styles.label}>{s.label}</span>
          {s.description ? <span className={styles.description}>{s.description}</span> : null}
        </li>
      ))}
    </ol>
  );
}
