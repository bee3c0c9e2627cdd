/**
 * How a score is shown, in one place for the app and the phone report pages: whole points, and a
 * change with its sign and one decimal ("+9.0", "−2.5"). Plain functions, no zod.
 */
export function formatScore(value: number | null | undefined): string | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return String(Math.round(value));
}

export function formatChange(value: number | null | undefined, digits = 1): string | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const text = value.toFixed(digits);
  if (Number(text) === 0) return (0).toFixed(digits);
  return value > 0 ? `+${text}` : `−${text.slice(1)}`;
}
