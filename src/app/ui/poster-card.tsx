import { useState } from 'react';
import { Link } from 'react-router-dom';
import styles from './poster-card.module.css';

export interface PosterCardProps {
  to: string;
  title: string;
  subtitle?: string;
  posterUrl: string;
  durationLabel: string;
  /** Accessible text for the duration, e.g. "2 minutes 5 seconds". */
  durationSpoken?: string;
  tags?: string[];
  /** The learner's progress in words ("Answered · best 25", "Dubbed 3/7 lines"). */
  status?: string;
  /**
   * A poster in the first screenful: fetched at once and first (the page's largest paint), not
   * when layout reaches it. The frame's aspect ratio holds its place either way.
   */
  priority?: boolean;
}

/** A film on the shelf: the whole card is one link, so one tab stop and one big target. */
export function PosterCard(p: PosterCardProps) {
  const [broken, setBroken] = useState(false);
  return (
    <Link to={p.to} className={styles.card}>
      <div className={styles.frame}>
        {broken || !p.posterUrl ? (
          <span className={styles.fallback} aria-hidden="true">
            {p.title}
          </span>
        ) : (
          <>
            {/* Posters are 16:9 stills: shown whole in the portrait frame, over a blurred copy of
                themselves, so no title or face in the still is cropped and the badges sit beside it. */}
            <img
              className={styles.backdrop}
              src={p.posterUrl}
              alt=""
              aria-hidden="true"
              loading={p.priority ? 'eager' : 'lazy'}
              decoding="async"
            />
            <img
              className={styles.poster}
              src={p.posterUrl}
              alt=""
              loading={p.priority ? 'eager' : 'lazy'}
              fetchPriority={p.priority ? 'high' : undefined}
              decoding="async"
              onError={() => setBroken(true)}
            />
          </>
        )}
        <span className={styles.duration}>
          <span aria-hidden={p.durationSpoken ? true : undefined}>{p.durationLabel}</span>
          {p.durationSpoken ? <span className="visually-hidden">{p.durationSpoken}</span> : null}
        </span>
      </div>
      <div className="stack" style={{ gap: 'var(--space-1)' }}>
        <h2 className={styles.title}>{p.title}</h2>
        {p.subtitle ? <span className={styles.status}>{p.subtitle}</span> : null}
        <span className={styles.meta}>
          {p.tags?.map((tag) => (
            <span key={tag} className={styles.tag}>
              {tag}
            </span>
          ))}
        </span>
        {p.status ? <span className={styles.status}>{p.status}</span> : null}
      </div>
    </Link>
  );
}
