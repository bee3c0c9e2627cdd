import type { CSSProperties, ReactNode } from 'react';
import styles from './chart-frame.module.css';

export interface LegendKey {
  label: string;
  color: string;
  dashed?: boolean;
}

export interface ChartFrameProps {
  title: string;
  /** One or two sentences that say what the chart shows: the canvas is hidden from screen readers. */
  summary: string;
  legend?: LegendKey[];
  /** An optional data table (inside a disclosure) for people who want the numbers. */
  table?: ReactNode;
  tableLabel?: string;
  /** The title is already the heading above (a card's): keep it for screen readers only. */
  hideTitle?: boolean;
  children: ReactNode;
}

/** The figure around every chart: a visible title and legend, a spoken summary, an optional table. */
export function ChartFrame({
  title,
  summary,
  legend,
  table,
  tableLabel,
  hideTitle,
  children,
}: ChartFrameProps) {
  return (
    <figure className={styles.figure}>
      <figcaption className={styles.caption}>
        <span className={hideTitle ? 'visually-hidden' : styles.title}>{title}</span>
        {legend ? (
          <span className={styles.legend} aria-hidden="true">
            {legend.map((k) => (
              <span key={k.label} className={styles.key}>
                <span
                  className={k.dashed ? `${styles.swatch} ${styles.dashed}` : styles.swatch}
                  style={{ '--swatch': k.color } as CSSProperties}
                />
                {k.label}
              </span>
            ))}
          </span>
        ) : null}
      </figcaption>
      <p className="visually-hidden">{summary}</p>
      {children}
      {table ? (
        <details className={styles.details}>
          <summary>{tableLabel}</summary>
          {table}
        </details>
      ) : null}
    </figure>
  );
}

export function ChartCanvas({
  chartRef,
  failed,
  height,
  fallback,
}: {
  chartRef: React.RefObject<HTMLDivElement | null>;
  failed: boolean;
  height: number;
  fallback: string;
}) {
  if (failed) return <p className={styles.fallback}>{fallback}</p>;
  return <div ref={chartRef} className={styles.canvas} style={{ height }} aria-hidden="true" />;
}

export function ChartSkeleton({ height }: { height: number }) {
  return <div className={styles.skeleton} style={{ height }} aria-hidden="true" />;
}

export const chartTableClass = styles.table;
