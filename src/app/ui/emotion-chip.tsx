import type { Emotion } from '../../api/contract';
import { cx } from './cx';
import styles from './emotion-chip.module.css';

export interface EmotionChipProps {
  emotion: Emotion;
  /** The emotion's name in the current language. */
  label: string;
  /** A short caption before the name ("目标" / "detected"). */
  caption?: string;
}

/** An emotion as a coloured dot plus its name: colour is never the only carrier of meaning. */
export function EmotionChip({ emotion, label, caption }: EmotionChipProps) {
  return (
    <span className={cx(styles.chip, styles[emotion])}>
      <span className={styles.dot} aria-hidden="true" />
      {caption ? <span className={styles.caption}>{caption}</span> : null}
      <span>{label}</span>
    </span>
  );
}
