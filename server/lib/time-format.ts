/**
 * Subtitle times as the app shows them (docs/api.md): `mm:ss`, minutes not capped at 59 so that
 * 60 × minutes + seconds gives the total; `mm:ss.SSS` when the time is not a whole second.
 */
export function formatMmSs(ms: number): string {
  const totalSeconds = Math.floor(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  const millis = ms % 1000;
  const base = `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
  return millis === 0 ? base : `${base}.${String(millis).padStart(3, '0')}`;
}
