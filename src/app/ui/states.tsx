import type { ReactNode } from 'react';
import { Button } from './button';
import { cx } from './cx';
import { FilmIcon, RefreshIcon } from './icons';
import styles from './states.module.css';

export function LoadingState({ label }: { label: string }) {
  return (
    <div className={cx(styles.state, styles.loading)} role="status" aria-live="polite">
      <div className={styles.dots} aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <p className={styles.body}>{label}</p>
    </div>
  );
}

/** Poster-shaped placeholders while the shelf loads; announced once through the label. */
export function PosterGridSkeleton({ label, count = 8 }: { label: string; count?: number }) {
  return (
    <div role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      <div className={styles.skeletonGrid} aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders never reorder
          <div key={i} className={styles.skeleton} />
        ))}
      </div>
    </div>
  );
}

export interface EmptyStateProps {
  title: string;
  body?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}

export function EmptyState({ title, body, action, icon }: EmptyStateProps) {
  return (
    <div className={styles.state}>
      <div className={styles.icon} aria-hidden="true">
        {icon ?? <FilmIcon />}
      </div>
      <h2 className={styles.title}>{title}</h2>
      {body ? <p className={styles.body}>{body}</p> : null}
      {action}
    </div>
  );
}

export interface ErrorStateProps {
  title: string;
  body?: ReactNode;
  retryLabel?: string;
  onRetry?: () => void;
  action?: ReactNode;
}

export function ErrorState({ title, body, retryLabel, onRetry, action }: ErrorStateProps) {
  return (
    <div className={cx(styles.state, styles.error)} role="alert">
      <div className={styles.icon} aria-hidden="true">
        !
      </div>
      <h2 className={styles.title}>{title}</h2>
      {body ? <p className={styles.body}>{body}</p> : null}
      <div className="row" style={{ justifyContent: 'center' }}>
        {onRetry && retryLabel ? (
          <Button variant="primary" icon={<RefreshIcon />} onClick={onRetry}>
            {retryLabel}
          </Button>
        ) : null}
        {action}
      </div>
    </div>
  );
}
