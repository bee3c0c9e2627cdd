import { batch, computed, signal } from '@preact/signals-react';
import { accountLogin } from '../../api/calls';
import type { UserInfo } from '../../api/contract';
import { readToken, removeToken, writeToken } from '../../api/token';
import { readJson, writeJson } from './storage';
import { userAction } from './user-action';

/** Account state: the QR image + uuid of a pending QR login, and the logged-in user. */
export interface AuthQRCode {
  /** A `data:image/png` URL made by `qrcode` from the server's link. */
  qrcode: string;
  uuid: string;
}

export const USER_INFO_KEY = 'account.userInfo';
/** Set when this browser's session came from a phone's QR confirm (sessionStorage: this tab only). */
export const VIA_QR_KEY = 'account.viaQr';

export const authQRCode = signal<AuthQRCode | null>(null);
export const userInfo = signal<UserInfo | null>(readJson<UserInfo>(localStorage, USER_INFO_KEY));
/** Mirrors the `user-token` cookie so the auth guard re-renders when it changes. */
export const token = signal<string | null>(readToken());
export const isLoggedIn = computed(() => token.value !== null);
/**
 * The session came from a phone's QR confirm: the screens then name the account with a "not you?
 * sign out" (whoever scanned first signed this screen in).
 */
export const viaQr = signal<boolean>(readJson<boolean>(sessionStorage, VIA_QR_KEY) === true);

/** Re-reads the cookie (it may have been changed by another tab or removed by expiry). */
export function syncToken(): string | null {
  token.value = readToken();
  return token.value;
}

/**
 * Keeps `token` in step with the cookie when the learner comes back to the tab (another tab may have
 * logged out, or the 7-day cookie expired), so the guard reacts without a reload. Returns a stop function.
 */
export function watchTokenCookie(): () => void {
  const onVisible = () => {
    if (document.visibilityState === 'visible') syncToken();
  };
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('focus', onVisible);
  return () => {
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener('focus', onVisible);
  };
}

/** Stores the token in cookie `user-token` (604 800 s, path /) and saves the user info. */
export function completeLogin(newToken: string, info: UserInfo | null, opts: { viaQr?: boolean } = {}): void {
  writeToken(newToken);
  writeJson(localStorage, USER_INFO_KEY, info);
  writeJson(sessionStorage, VIA_QR_KEY, opts.viaQr === true);
  // One update: a subscriber never sees the new token with the previous learner's info.
  batch(() => {
    token.value = newToken;
    userInfo.value = info;
    viaQr.value = opts.viaQr === true;
    authQRCode.value = null;
  });
}

/**
 * Account + password login: a user action, so a failure is shown as a toast (or, with `inline`, by
 * the form that asked, and only there) and the ApiError is rethrown for the form to mark its fields.
 * Returns the user info on success.
 */
export async function loginWithPassword(
  account: string,
  password: string,
  opts: { inline?: boolean } = {},
): Promise<UserInfo> {
  const info = await userAction(() => accountLogin({ account, password }), opts);
  completeLogin(info.token, info);
  return info;
}

export function resetAccount(): void {
  removeToken();
  batch(() => {
    token.value = null;
    userInfo.value = null;
    viaQr.value = false;
    authQRCode.value = null;
  });
}
