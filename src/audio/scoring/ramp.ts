/** 1 at `good`, 0 at `bad`, linear between, clamped; works in either direction. */
export function ramp(value: number, good: number, bad: number): number {
  if (!Number.isFinite(value)) return 0;
  const t = (value - good) / (bad - good);
  return Math.min(1, Math.max(0, 1 - t));
}

export function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
