/**
 * What kind of device this browser is: a shared `kiosk` (idle logout returns it to standby for the
 * next visitor) or a `personal` phone or desktop (no idle logout: its owner steps away and comes back
 * to the same session). Issue 21, point 10: the 3-minute logout hit phones and desktops too.
 *
 * In order: the device's own mark (`?device=kiosk` or `?device=personal` on any address, kept in
 * localStorage and through every logout), the deployment's `window.__APP_CONFIG__.device`, then a
 * guess: a touch screen narrower than 600 px is a phone (personal), anything else a kiosk, so a
 * kiosk nobody marked still logs out.
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

function looksLikePhone(): boolean {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return false;
  const narrow = Math.min(window.screen?.width ?? Infinity, window.screen?.height ?? Infinity) < 600;
  return narrow && window.matchMedia('(pointer: coarse)').matches;
}

export function deviceKind(): DeviceKind {
  const mark = stored();
  if (mark) return mark;
  const configured = typeof window === 'undefined' ? undefined : window.__APP_CONFIG__?.device;
  if (isKind(configured)) return configured;
  return looksLikePhone() ? 'personal' : 'kiosk';
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
