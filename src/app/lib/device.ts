/**
 * What kind of device this browser is: a shared `kiosk` (idle logout returns it to standby for the
 * next visitor) or a `personal` phone or desktop (no idle logout: its owner steps away and comes back
 * to the same session).
 *
 * In order: the device's own mark (`?device=kiosk` or `?device=personal` on any address, kept in
 * localStorage and through every logout), the deployment's `window.__APP_CONFIG__.device`, then a
 * guess from the pointer: a mouse or touchpad with no touch screen is a desktop (personal), a touch
 * screen narrower than 600 px a phone (personal), and any other touch screen a kiosk, so a touch
 * kiosk nobody marked still logs out. A kiosk driven by a mouse is marked by its operator (README,
 * "Configuration").
 */
export type DeviceKind = 'kiosk' | 'personal';

export const DEVICE_KIND_KEY = 'device.kind';

const isKind = (v: unknown): v is DeviceKind => v === 'kiosk' || v === 'personal';

function stored(): DeviceKind | null {
  try {
    const v = localStorage.getItem(DEVICE_KIND_KEY);
    return isKind(v) ? v : null;
  } catch {
    return null; // storage blocked: fall back to the deployment and the guess
  }
}

/** The unmarked guess. A browser that cannot say what it is counts as a kiosk: it still logs out. */
function guessed(): DeviceKind {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return 'kiosk';
  const media = (q: string) => window.matchMedia(q).matches;
  const touch = (window.navigator?.maxTouchPoints ?? 0) > 0 || media('(any-pointer: coarse)');
  if (!touch && media('(pointer: fine)')) return 'personal';
  const narrow = Math.min(window.screen?.width ?? Infinity, window.screen?.height ?? Infinity) < 600;
  return narrow && media('(pointer: coarse)') ? 'personal' : 'kiosk';
}

export function deviceKind(): DeviceKind {
  const mark = stored();
  if (mark) return mark;
  const configured = typeof window === 'undefined' ? undefined : window.__APP_CONFIG__?.device;
  if (isKind(configured)) return configured;
  return guessed();
}

/** Stores a `?device=` mark of the address the app opened at (called once at start, main.tsx). */
export function rememberDeviceFromUrl(search: string = location.search): void {
  const v = new URLSearchParams(search).get('device');
  if (isKind(v)) writeMark(v);
}

function writeMark(kind: DeviceKind | null): void {
  try {
    if (kind) localStorage.setItem(DEVICE_KIND_KEY, kind);
    else localStorage.removeItem(DEVICE_KIND_KEY);
  } catch (e) {
    console.error('[device] cannot store the device kind', e);
  }
}

/**
 * Reads the mark before local data is wiped and returns a function that writes it back: the device's
 * kind is not the learner's data (stores/session.ts, clearLocalData).
 */
export function keepDeviceMark(): () => void {
  const mark = stored();
  return () => {
    if (mark) writeMark(mark);
  };
}
