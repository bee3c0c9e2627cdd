import { signal } from '@preact/signals-react';
import { getAuthQRCode, getWxLoginStatus } from '../../api/calls';
import type { UserInfo, WxLoginStatusData } from '../../api/contract';
import { QR_PICKUP_HEADER } from '../../api/contract/constants';
import { isAbortError } from '../../api/errors';
import { errorText } from '../i18n/error-text';
import { authQRCode, completeLogin } from './account';

/**
 * QR login (docs/api.md, "Sign-in") as a framework-free controller: request the link, draw it with `qrcode`, take
 * `uuid` from the link's query string, then long-poll the status one request at a time until success,
 * expiry, cancel or stop. An expired or cancelled code is replaced by a fresh one automatically.
 * Each poll carries the request's pickup key from qr_url's answer (QR_PICKUP_HEADER): the server
 * hands the token only to the screen that holds it, not to whoever read the uuid off the QR code.
 */
export type QrPhase =
  | 'idle'
  | 'loading'
  | 'waiting'
  | 'scanned'
  | 'expired'
  | 'cancelled'
  | 'success'
  | 'error';

export interface QrLoginState {
  phase: QrPhase;
  qrcode: string;
  uuid: string;
  link: string;
  /** The last error's message while retrying (null when fine). */
  error: string | null;
}

export interface QrLoginOptions {
  onSuccess?: (info: UserInfo | null) => void;
  /** How long the server may hold a status poll (contract `wait`). */
  waitMs?: number;
  /** Pause before a fresh code replaces an expired or cancelled one (so the state is visible). */
  refreshDelayMs?: number;
  /** Pause before polling again after a failed poll. */
  retryDelayMs?: number;
  /** Turns the link into an image; defaults to `qrcode`'s toDataURL (loaded only when needed). */
  toDataURL?: (text: string) => Promise<string>;
}

const initial: QrLoginState = { phase: 'idle', qrcode: '', uuid: '', link: '', error: null };

/** The uuid from the link's query string (docs/api.md, "Sign-in"). */
export function uuidFromLink(link: string): string {
  const query = link.includes('?') ? link.slice(link.indexOf('?') + 1).split('#')[0] : '';
  const uuid = new URLSearchParams(query).get('uuid');
  if (!uuid) throw new Error(`The QR link has no uuid parameter: ${link}`);
  return uuid;
}

const defaultToDataURL = async (text: string) => {
  const QRCode = await import('qrcode');
  return QRCode.toDataURL(text, { margin: 1, width: 320, errorCorrectionLevel: 'M' });
};

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** What one status poll loop needs from its QR login (createQrLogin). */
interface PollContext {
  waitMs: number;
  retryDelayMs: number;
  set: (patch: Partial<QrLoginState>) => void;
  onSuccess?: (user: UserInfo | null) => void;
  /** Status polls in flight now, and the most there ever were. */
  polls: { inFlight: number; max: number };
}

/** Long-polls one request's status until the login succeeds, the request ends or `signal` stops it. */
async function pollStatus(
  ctx: PollContext,
  uuid: string,
  pickupKey: string,
  deadline: number,
  signal: AbortSignal,
): Promise<'success' | 'expired' | 'cancelled' | 'stopped'> {
  while (!signal.aborted) {
    if (Date.now() >= deadline) return 'expired';
    let data: WxLoginStatusData;
    ctx.polls.inFlight++;
    ctx.polls.max = Math.max(ctx.polls.max, ctx.polls.inFlight);
    try {
      data = await getWxLoginStatus(
        { uuid, wait: ctx.waitMs },
        { signal, headers: { [QR_PICKUP_HEADER]: pickupKey } },
      );
    } catch (e) {
      if (signal.aborted || isAbortError(e)) return 'stopped';
      console.error('[qr-login] status poll failed', e);
      ctx.set({ error: errorText(e) });
      await sleep(ctx.retryDelayMs, signal);
      continue;
    } finally {
      ctx.polls.inFlight--;
    }
    if (signal.aborted) return 'stopped';
    if (data.status && data.token) {
      completeLogin(data.token, data.userInfo ?? null, { viaQr: true });
      ctx.set({ phase: 'success', error: null });
      ctx.onSuccess?.(data.userInfo ?? null);
      return 'success';
    }
    if (data.state === 'expired') return 'expired';
    if (data.state === 'cancelled') return 'cancelled';
    ctx.set({
      phase: data.state === 'scanned' || data.state === 'confirmed' ? 'scanned' : 'waiting',
      error: null,
    });
  }
  return 'stopped';
}

/** A fresh QR request: its link and id, the code's image, its lifetime and the pickup key only this screen holds. */
async function requestCode(signal: AbortSignal, toDataURL: (text: string) => Promise<string>) {
  const res = await getAuthQRCode({ signal });
  return {
    link: res.url,
    uuid: uuidFromLink(res.url),
    qrcode: await toDataURL(res.url),
    expiresIn: res.expiresIn,
    pickupKey: res.pickupKey,
  };
}

export function createQrLogin(opts: QrLoginOptions = {}) {
  const state = signal<QrLoginState>(initial);
  const refreshDelayMs = opts.refreshDelayMs ?? 1500;
  const retryDelayMs = opts.retryDelayMs ?? 2000;
  const toDataURL = opts.toDataURL ?? defaultToDataURL;
  let run: AbortController | null = null;
  const set = (patch: Partial<QrLoginState>) => {
    state.value = { ...state.peek(), ...patch };
  };
  // Its status polls in flight never exceed 1 (tests pin it: maxConcurrentPolls).
  const ctx: PollContext = {
    waitMs: opts.waitMs ?? 20_000,
    retryDelayMs,
    set,
    onSuccess: opts.onSuccess,
    polls: { inFlight: 0, max: 0 },
  };

  async function cycle(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      set({ phase: 'loading', error: null });
      let code: Awaited<ReturnType<typeof requestCode>>;
      try {
        code = await requestCode(signal, toDataURL);
      } catch (e) {
        if (signal.aborted || isAbortError(e)) return;
        console.error('[qr-login] cannot get a QR code', e);
        set({ phase: 'error', error: errorText(e) });
        await sleep(retryDelayMs * 2, signal);
        continue;
      }
      if (signal.aborted) return;
      const { qrcode, uuid, link } = code;
      authQRCode.value = { qrcode, uuid };
      set({ phase: 'waiting', qrcode, uuid, link, error: null });
      const outcome = await pollStatus(ctx, uuid, code.pickupKey, Date.now() + code.expiresIn * 1000, signal);
      if (outcome === 'success' || outcome === 'stopped') return;
      set({ phase: outcome });
      await sleep(refreshDelayMs, signal);
    }
  }

  return {
    state,
    /** Starts (or restarts with a fresh code). Safe to call twice: the earlier run is stopped first. */
    start(): Promise<void> {
      run?.abort();
      const controller = new AbortController();
      run = controller;
      return cycle(controller.signal);
    },
    /** Stops polling (page left, user switched to the password form). */
    stop(): void {
      run?.abort();
      run = null;
      if (state.peek().phase !== 'success') set({ phase: 'idle' });
    },
    /** Test hook: the most status polls that were ever in flight at once. */
    get maxConcurrentPolls() {
      return ctx.polls.max;
    },
  };
}

export type QrLogin = ReturnType<typeof createQrLogin>;
