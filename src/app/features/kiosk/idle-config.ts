import { deviceKind } from '../../lib/device';

/** A kiosk returns to standby after 3 minutes without a touch, unless configured otherwise (README, Configuration). */
export const DEFAULT_KIOSK_IDLE_MS = 180_000;

/**
 * The idle timeout in ms: run time `window.__APP_CONFIG__.kioskIdleMs` wins (one bundle, many kiosks),
 * then build time `VITE_KIOSK_IDLE_MS`, then 3 minutes. 0 turns the watcher off; a personal device
 * (a phone, a desktop with no touch screen, or a browser marked `?device=personal`: lib/device.ts)
 * is always off.
 * A value that is not a non-negative number is ignored with a log line rather than breaking the app.
 */
export function kioskIdleMs(): number {
  // Only a shared kiosk logs out when idle; a phone or desktop keeps its session (lib/device.ts).
  if (deviceKind() === 'personal') return 0;
  const runtime = typeof window === 'undefined' ? undefined : window.__APP_CONFIG__?.kioskIdleMs;
  for (const [source, raw] of [
    ['window.__APP_CONFIG__.kioskIdleMs', runtime],
    ['VITE_KIOSK_IDLE_MS', import.meta.env.VITE_KIOSK_IDLE_MS],
  ] as const) {
    if (raw === undefined || raw === null || raw === '') continue;
    const n = Number(raw);
    if (Number.isFinite(n) && n >= 0) return n;
    console.warn(`[kiosk] ignoring ${source}=${String(raw)}: expected milliseconds (0 turns it off)`);
  }
  return DEFAULT_KIOSK_IDLE_MS;
}

/** The warning shows for the last 15 s, or the last quarter of a short timeout. */
export function warningMs(idleMs: number): number {
  return Math.min(15_000, Math.floor(idleMs / 4));
}
