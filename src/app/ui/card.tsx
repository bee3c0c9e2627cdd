import type { HTMLAttributes, ReactNode } from 'react';
import styles from './card.module.css';
import { cx } from './cx';

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  /** A heading for the card; it also names the region for screen readers. */
  title?: ReactNode;
  titleId?: string;
  /** Extra content on the heading's line (a badge, a link). */
  aside?: ReactNode;
  headingLevel?: 2 | 3;
  flat?: boolean;
}

export function Card({
  title,
  titleId,
  aside,
  headingLevel = 2,
  flat,
  className,
  children,
  ...rest
}: CardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section
      className={cx(styles.card, flat && styles.flat, className)}
      aria-labelledby={title && titleId ? titleId : undefined}
      {...rest}
    >
      {title || aside ? (
        <div className={styles.head}>
          {title ? (
            <Heading id={titleId} className={styles.title}>
              {title}
            </Heading>
          ) : null}
          {aside}
        </div>
      ) : null}
      {children}
    </section>
  );
}
