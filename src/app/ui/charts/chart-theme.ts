/**
 * Chart colours come from the design tokens so a chart matches the page (and its print overrides).
 * Canvas cannot read CSS variables itself, so they are resolved once per render.
 */
export interface ChartTheme {
  text: string;
  muted: string;
  grid: string;
  learner: string;
  actor: string;
  /** The take with the actor's melody (the contour overlay's third line). */
  melody: string;
  accent: string;
  surface: string;
  font: string;
}

const FALLBACK: ChartTheme = {
  text: '#f3f1ec',
  muted: '#b4b8c4',
  grid: '#343a4a',
  learner: '#5ed3c4',
  actor: '#e8a54b',
  melody: '#b79cff',
  accent: '#f2b45a',
  surface: '#1b1e26',
  font: 'system-ui, sans-serif',
};

export function readChartTheme(
  el: Element | null = typeof document === 'undefined' ? null : document.documentElement,
): ChartTheme {
  if (!el || typeof getComputedStyle !== 'function') return FALLBACK;
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--color-text', FALLBACK.text),
    muted: v('--color-text-muted', FALLBACK.muted),
    grid: v('--color-border', FALLBACK.grid),
    learner: v('--color-learner', FALLBACK.learner),
    actor: v('--color-actor', FALLBACK.actor),
    melody: v('--color-melody', FALLBACK.melody),
    accent: v('--color-accent', FALLBACK.accent),
    surface: v('--color-surface', FALLBACK.surface),
    font: v('--font-sans', FALLBACK.font),
  };
}
